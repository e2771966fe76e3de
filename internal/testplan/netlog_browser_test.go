package testplan

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// TestRunNetLogAtAFailure: with a browser that writes a NetLog, a step
// that fails because the site reset the connection before any answer
// carries the NetLog's line on it, in the result and in report.md.
func TestRunNetLogAtAFailure(t *testing.T) {
	path := browsertest.Chrome(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // closed by the cleanup
			}
			go func() {
				buf := make([]byte, 4096)
				_, _ = c.Read(buf) // the request, then a reset: no answer at all
				c.(*net.TCPConn).SetLinger(0)
				c.Close()
			}()
		}
	}()
	site := "http://" + ln.Addr().String()
	m := sessions.New(driver.Options{ExecPath: path, Args: browsertest.GuardArgs, NetLog: filepath.Join(t.TempDir(), "net.json")})
	t.Cleanup(func() { _ = m.Close() })

	p, err := Parse([]byte("name: reset\nscenarios:\n  - name: open the shop\n    steps:\n      - open /shop\n"), "plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "evidence")
	var progress syncBuffer
	rep, err := Run(ctx, p, Options{Caller: m, OutDir: out, BaseURL: site, Progress: &progress,
		NetLog: func(ctx context.Context, session string, since, until time.Time) (string, string, error) {
			res, err := calls.Remote{Caller: m, Session: session}.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli(), UntilUnixMS: until.UnixMilli()})
			if err != nil {
				return "", "", err
			}
			return res.Brief, res.Markdown, nil
		}})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, progress.String())
	}
	st := rep.Scenarios[0].Steps[0]
	want := "GET " + site + "/shop: ERR_CONNECTION_RESET before any answer"
	if st.Status != StatusFailed || !strings.HasPrefix(st.NetLog, want) {
		t.Fatalf("step %+v\nwant a failure with netlog %q", st, want)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "netlog: GET") || !strings.Contains(progress.String(), "netlog: "+want) {
		t.Errorf("the NetLog's line is not in report.md or the progress:\n%s\n%s", md, progress.String())
	}
	// The span's summary is the step's evidence, linked from the report.
	if st.NetLogFile == "" || !strings.Contains(string(md), "[netlog]("+st.NetLogFile+")") {
		t.Fatalf("netlog file %q, report:\n%s", st.NetLogFile, md)
	}
	sum, err := os.ReadFile(filepath.Join(out, st.NetLogFile))
	if err != nil || !strings.Contains(string(sum), "# NetLog summary") || !strings.Contains(string(sum), "ERR_CONNECTION_RESET") {
		t.Errorf("the step's NetLog summary (%v):\n%s", err, sum)
	}
}
