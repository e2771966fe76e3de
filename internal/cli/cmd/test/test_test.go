package test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/rpc"
)

func writePlan(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "plan.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTestFlags(t *testing.T) {
	got, err := clitest.ParseCmd(t, NewCmdTest, []string{"p.yaml", "--out", "ev", "--junit", "j.xml", "--base-url", "http://127.0.0.1:9", "--model", "rules"})
	if err != nil {
		t.Fatal(err)
	}
	if got.File != "p.yaml" || got.Out != "ev" || got.JUnit != "j.xml" || got.BaseURL != "http://127.0.0.1:9" || got.Model.Model != "rules" {
		t.Errorf("options: %+v", got)
	}
	if _, err := clitest.ParseCmd(t, NewCmdTest, nil); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("no plan: exit %d (%v)", cmdutil.ExitCode(err), err)
	}
}

func TestTestRun(t *testing.T) {
	tests := []struct {
		name     string
		plan     string
		reply    func(string, any) (any, error)
		json     bool
		wantExit int
		check    func(t *testing.T, out, errOut, dir string, fc *clitest.FakeCaller)
	}{
		{
			name: "passes", plan: clitest.CLIPlan, reply: clitest.ShopReply("Products · Shop"), wantExit: cmdutil.ExitOK,
			check: func(t *testing.T, out, errOut, dir string, fc *clitest.FakeCaller) {
				if !strings.Contains(out, "passed\ttitle\t") || !strings.Contains(out, filepath.Join(dir, "report.md")) || !strings.Contains(out, filepath.Join(dir, "report.html")+"\n") {
					t.Errorf("stdout:\n%s", out)
				}
				if !strings.Contains(errOut, "PASS  title › expect title Products") || !strings.Contains(errOut, "1 of 1 scenario(s) passed") {
					t.Errorf("stderr:\n%s", errOut)
				}
				var opened calls.OpenRequest
				var sessions []string
				for _, c := range fc.Calls {
					if c.Method == calls.MethodOpen {
						opened = c.Params.(calls.OpenRequest)
					}
					if c.Method == rpc.MethodSessionClose {
						sessions = append(sessions, c.Session)
					}
				}
				if opened.URL != "http://shop.test/products" {
					t.Errorf("opened %q; want the base URL joined", opened.URL)
				}
				if len(sessions) != 2 || sessions[0] != sessions[1] || !strings.Contains(sessions[0], "cli-plan-01-title") {
					t.Errorf("session closes: %v", sessions)
				}
			},
		},
		{
			name: "fails with json", plan: clitest.CLIPlan, reply: clitest.ShopReply("Cart · Shop"), json: true, wantExit: cmdutil.ExitFailed,
			check: func(t *testing.T, out, errOut, dir string, _ *clitest.FakeCaller) {
				var env struct {
					OK   bool `json:"ok"`
					Data struct {
						Counts struct{ Failed int } `json:"counts"`
					} `json:"data"`
					Error *cmdutil.ErrorBody `json:"error"`
				}
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if len(lines) < 2 || !strings.HasPrefix(lines[0], `{"type":"step"`) {
					t.Errorf("want the steps streamed before the envelope:\n%s", out)
				}
				if err := json.Unmarshal([]byte(lines[len(lines)-1]), &env); err != nil {
					t.Fatalf("the last line is not the envelope: %v\n%s", err, out)
				}
				if env.OK || env.Data.Counts.Failed != 1 || env.Error == nil || env.Error.Code != "test_failed" {
					t.Errorf("envelope: %s", out)
				}
				if errOut != "" {
					t.Errorf("--json should keep stderr quiet:\n%s", errOut)
				}
				for _, f := range []string{"report.md", "report.json", "junit.xml", "01-title/02-failure.png", "01-title/02-failure-outline.txt"} {
					if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
						t.Errorf("evidence: %v", err)
					}
				}
			},
		},
		{
			name: "browser unavailable", plan: clitest.CLIPlan + "  - name: second\n    steps: [open /]\n",
			reply: func(method string, _ any) (any, error) {
				if method == calls.MethodOpen {
					return nil, calls.Errorf(calls.ErrUnavailable, "", "no Chromium found")
				}
				return calls.Empty{}, nil
			},
			wantExit: cmdutil.ExitUnavailable,
			check: func(t *testing.T, out, errOut, dir string, _ *clitest.FakeCaller) {
				md, err := os.ReadFile(filepath.Join(dir, "report.md"))
				if err != nil || !strings.Contains(string(md), "not run: the browser is unavailable") {
					t.Errorf("report.md (%v):\n%s", err, md)
				}
			},
		},
		{
			name: "malformed plan", plan: "scenarios:\n  - name: a\n    steps:\n      - clik Go\n", wantExit: cmdutil.ExitUsage,
		},
		{
			name: "secret not set", plan: "secrets: [PW]\nscenarios:\n  - name: a\n    steps: [open /]\n", wantExit: cmdutil.ExitUsage,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{Reply: tt.reply}
			if fc.Reply == nil {
				fc.Reply = clitest.ShopReply("x")
			}
			common, out, errOut := clitest.NewCommon(fc, tt.json, false)
			dir := filepath.Join(t.TempDir(), "ev")
			common.Getenv = func(string) string { return "" }
			opts := &TestOptions{Common: common, File: writePlan(t, tt.plan), Out: dir}
			err := runTest(context.Background(), opts)
			if got := cmdutil.ExitCode(err); got != tt.wantExit {
				t.Fatalf("exit %d, want %d (err %v)\nstdout:\n%s\nstderr:\n%s", got, tt.wantExit, err, out, errOut)
			}
			if tt.check != nil {
				tt.check(t, out.String(), errOut.String(), dir, fc)
			}
		})
	}
}

func TestTestRunDefaultOutDir(t *testing.T) {
	t.Chdir(t.TempDir())
	fc := &clitest.FakeCaller{Reply: clitest.ShopReply("Products")}
	common, _, _ := clitest.NewCommon(fc, false, false)
	opts := &TestOptions{Common: common, File: writePlan(t, clitest.CLIPlan), Now: func() time.Time { return clitest.Now }}
	if err := runTest(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("waymark-evidence", "cli-plan-20260304-050607", "report.md")
	if _, err := os.Stat(want); err != nil {
		t.Errorf("default evidence folder: %v", err)
	}
}
