package page

import (
	"context"
	"fmt"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestDownloadsParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdDownloads, func(o *DownloadsOptions) any { return o.Session }, []clitest.ParseCase{
		{Name: "bare", Want: "s1"},
		{Name: "argument", Args: []string{"report.csv"}, WantUsage: true},
	})
}

func TestDownloadsRun(t *testing.T) {
	list := calls.DownloadList{Downloads: []calls.Download{
		{Name: "report.csv", Path: "/tmp/wm/report.csv", Bytes: 100, State: calls.DownloadCompleted},
		{Name: "setup.exe", State: calls.DownloadRefused, Reason: "files ending .exe are not allowed (allowed: .csv\t.pdf)"},
	}}
	run := func(ctx context.Context, c cmdutil.Common) error {
		return downloadsRun(ctx, &DownloadsOptions{Common: c})
	}
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name:       "tty",
			TTY:        true,
			Results:    map[string]any{calls.MethodDownloads: list},
			Run:        run,
			WantStdout: "STATE      NAME        BYTES  PATH OR REASON\ncompleted  report.csv  100    /tmp/wm/report.csv\nrefused    setup.exe   0      files ending .exe are not allowed (allowed: .csv .pdf)\n",
			WantCalls:  []string{calls.MethodDownloads},
		},
		{
			Name:       "not a tty",
			Results:    map[string]any{calls.MethodDownloads: list},
			Run:        run,
			WantStdout: "completed\treport.csv\t100\t/tmp/wm/report.csv\nrefused\tsetup.exe\t0\tfiles ending .exe are not allowed (allowed: .csv .pdf)\n",
		},
		{
			Name:       "json",
			JSON:       true,
			Results:    map[string]any{calls.MethodDownloads: calls.DownloadList{Downloads: list.Downloads[:1]}},
			Run:        run,
			WantStdout: `{"ok":true,"data":{"downloads":[{"name":"report.csv","path":"/tmp/wm/report.csv","bytes":100,"state":"completed"}]}}` + "\n",
		},
		{
			Name:       "none",
			TTY:        true,
			Results:    map[string]any{calls.MethodDownloads: calls.DownloadList{}},
			Run:        run,
			WantStderr: "no downloads in session \"s1\"\n",
		},
		{
			Name:       "no daemon, json",
			JSON:       true,
			Errs:       map[string]error{calls.MethodDownloads: fmt.Errorf("dial: %w", cmdutil.ErrNoDaemon)},
			Run:        run,
			WantStdout: `{"ok":true,"data":{"downloads":[]}}` + "\n",
		},
	})
}
