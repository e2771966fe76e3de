package cli

import (
	"context"
	"fmt"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestDownloadsParse(t *testing.T) {
	checkParse(t, NewCmdDownloads, func(o *DownloadsOptions) any { return o.Session }, []parseCase{
		{name: "bare", want: "s1"},
		{name: "argument", args: []string{"report.csv"}, wantUsage: true},
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
	checkRuns(t, []runCase{
		{
			name:       "tty",
			tty:        true,
			results:    map[string]any{calls.MethodDownloads: list},
			run:        run,
			wantStdout: "STATE      NAME        BYTES  PATH OR REASON\ncompleted  report.csv  100    /tmp/wm/report.csv\nrefused    setup.exe   0      files ending .exe are not allowed (allowed: .csv .pdf)\n",
			wantCalls:  []string{calls.MethodDownloads},
		},
		{
			name:       "not a tty",
			results:    map[string]any{calls.MethodDownloads: list},
			run:        run,
			wantStdout: "completed\treport.csv\t100\t/tmp/wm/report.csv\nrefused\tsetup.exe\t0\tfiles ending .exe are not allowed (allowed: .csv .pdf)\n",
		},
		{
			name:       "json",
			json:       true,
			results:    map[string]any{calls.MethodDownloads: calls.DownloadList{Downloads: list.Downloads[:1]}},
			run:        run,
			wantStdout: `{"ok":true,"data":{"downloads":[{"name":"report.csv","path":"/tmp/wm/report.csv","bytes":100,"state":"completed"}]}}` + "\n",
		},
		{
			name:       "none",
			tty:        true,
			results:    map[string]any{calls.MethodDownloads: calls.DownloadList{}},
			run:        run,
			wantStderr: "no downloads in session \"s1\"\n",
		},
		{
			name:       "no daemon, json",
			json:       true,
			errs:       map[string]error{calls.MethodDownloads: fmt.Errorf("dial: %w", cmdutil.ErrNoDaemon)},
			run:        run,
			wantStdout: `{"ok":true,"data":{"downloads":[]}}` + "\n",
		},
	})
}
