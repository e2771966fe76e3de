package act

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestActCommandsParse(t *testing.T) {
	type build = func(*cmdutil.Factory, func(context.Context, *ActOptions) error) *cobra.Command
	tests := []struct {
		name      string
		build     build
		args      []string
		want      calls.ActRequest
		wantUsage bool
	}{
		{name: "click ref", build: NewCmdClick, args: []string{"@e12"},
			want: calls.ActRequest{Kind: "click", Target: "@e12", Button: "left", Count: 1}},
		{name: "click locator unchanged", build: NewCmdClick, args: []string{`role=button[name="Pay now"]`},
			want: calls.ActRequest{Kind: "click", Target: `role=button[name="Pay now"]`, Button: "left", Count: 1}},
		{name: "click flags", build: NewCmdClick, args: []string{"e12", "--button", "right", "--count", "2", "--timeout", "2s"},
			want: calls.ActRequest{Kind: "click", Target: "e12", Button: "right", Count: 2, TimeoutMS: 2000}},
		{name: "click sub-ms timeout rounds up", build: NewCmdClick, args: []string{"e1", "--timeout", "1us"},
			want: calls.ActRequest{Kind: "click", Target: "e1", Button: "left", Count: 1, TimeoutMS: 1}},
		{name: "click no target", build: NewCmdClick, args: nil, wantUsage: true},
		{name: "click two targets", build: NewCmdClick, args: []string{"e1", "e2"}, wantUsage: true},
		{name: "click bad button", build: NewCmdClick, args: []string{"e1", "--button", "side"}, wantUsage: true},
		{name: "click zero count", build: NewCmdClick, args: []string{"e1", "--count", "0"}, wantUsage: true},
		{name: "click negative timeout", build: NewCmdClick, args: []string{"e1", "--timeout", "-1s"}, wantUsage: true},
		{name: "dblclick", build: NewCmdDblClick, args: []string{"e3"}, want: calls.ActRequest{Kind: "dblclick", Target: "e3"}},
		{name: "hover", build: NewCmdHover, args: []string{"e3"}, want: calls.ActRequest{Kind: "hover", Target: "e3"}},
		{name: "focus", build: NewCmdFocus, args: []string{"label=Email"}, want: calls.ActRequest{Kind: "focus", Target: "label=Email"}},
		{name: "check", build: NewCmdCheck, args: []string{"e3"}, want: calls.ActRequest{Kind: "check", Target: "e3"}},
		{name: "uncheck", build: NewCmdUncheck, args: []string{"e3"}, want: calls.ActRequest{Kind: "uncheck", Target: "e3"}},
		{name: "fill", build: NewCmdFill, args: []string{"e5", "ann@example.com"},
			want: calls.ActRequest{Kind: "fill", Target: "e5", Value: "ann@example.com"}},
		{name: "fill empty text", build: NewCmdFill, args: []string{"e5", ""},
			want: calls.ActRequest{Kind: "fill", Target: "e5"}},
		{name: "fill no text", build: NewCmdFill, args: []string{"e5"}, wantUsage: true},
		{name: "type", build: NewCmdType, args: []string{"e8", "hello world"},
			want: calls.ActRequest{Kind: "type", Target: "e8", Value: "hello world"}},
		{name: "press key", build: NewCmdPress, args: []string{"Enter"}, want: calls.ActRequest{Kind: "press", Key: "Enter"}},
		{name: "press target key", build: NewCmdPress, args: []string{"e5", "Control+A"},
			want: calls.ActRequest{Kind: "press", Target: "e5", Key: "Control+A"}},
		{name: "press --target", build: NewCmdPress, args: []string{"Enter", "--target", "@e5"},
			want: calls.ActRequest{Kind: "press", Target: "@e5", Key: "Enter"}},
		{name: "press target twice", build: NewCmdPress, args: []string{"e5", "Enter", "--target", "e6"}, wantUsage: true},
		{name: "press nothing", build: NewCmdPress, args: nil, wantUsage: true},
		{name: "select several", build: NewCmdSelect, args: []string{"e6", "red", "green"},
			want: calls.ActRequest{Kind: "select", Target: "e6", Values: []string{"red", "green"}}},
		{name: "select no value", build: NewCmdSelect, args: []string{"e6"}, wantUsage: true},
		{name: "scroll page", build: NewCmdScroll, args: []string{"down"}, want: calls.ActRequest{Kind: "scroll", Direction: "down"}},
		{name: "scroll page px", build: NewCmdScroll, args: []string{"up", "300"},
			want: calls.ActRequest{Kind: "scroll", Direction: "up", Pixels: 300}},
		{name: "scroll element", build: NewCmdScroll, args: []string{"e30", "left", "50"},
			want: calls.ActRequest{Kind: "scroll", Target: "e30", Direction: "left", Pixels: 50}},
		{name: "scroll into view", build: NewCmdScroll, args: []string{"@e52", "into-view"},
			want: calls.ActRequest{Kind: "scroll", Target: "@e52", Direction: "into-view"}},
		{name: "scroll into view px", build: NewCmdScroll, args: []string{"e52", "into-view", "3"}, wantUsage: true},
		{name: "scroll into view no target", build: NewCmdScroll, args: []string{"into-view"}, wantUsage: true},
		{name: "scroll no direction", build: NewCmdScroll, args: []string{"e30"}, wantUsage: true},
		{name: "scroll bad direction", build: NewCmdScroll, args: []string{"e30", "sideways"}, wantUsage: true},
		{name: "scroll bad px", build: NewCmdScroll, args: []string{"down", "lots"}, wantUsage: true},
		{name: "scroll zero px", build: NewCmdScroll, args: []string{"down", "0"}, wantUsage: true},
		{name: "scroll too many", build: NewCmdScroll, args: []string{"down", "3", "4"}, wantUsage: true},
		{name: "drag", build: NewCmdDrag, args: []string{"e4", "e9"}, want: calls.ActRequest{Kind: "drag", Target: "e4", To: "e9"}},
		{name: "drag one", build: NewCmdDrag, args: []string{"e4"}, wantUsage: true},
		{name: "drag by", build: NewCmdDrag, args: []string{"e4", "--by", "-40,12.5"}, want: calls.ActRequest{Kind: "drag", Target: "e4", By: &calls.Point{X: -40, Y: 12.5}}},
		{name: "drag both", build: NewCmdDrag, args: []string{"e4", "e9", "--by", "1,2"}, wantUsage: true},
		{name: "drag by nothing", build: NewCmdDrag, args: []string{"e4", "--by", "left"}, wantUsage: true},
		{name: "click-at", build: NewCmdClickAt, args: []string{"420", "310.5"}, want: calls.ActRequest{Kind: "click-at", At: &calls.Point{X: 420, Y: 310.5}}},
		{name: "click-at words", build: NewCmdClickAt, args: []string{"left", "top"}, wantUsage: true},
		{name: "click-at one", build: NewCmdClickAt, args: []string{"420"}, wantUsage: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := clitest.ParseCmd(t, tt.build, tt.args)
			if tt.wantUsage {
				var ue *cmdutil.UsageError
				if !errors.As(err, &ue) {
					t.Fatalf("err = %v, want a UsageError", err)
				}
				if got != nil {
					t.Errorf("runF called with %+v", got.Request)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if diff := cmp.Diff(tt.want, got.Request); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			if got.Session != "s1" {
				t.Errorf("session = %q, want s1", got.Session)
			}
		})
	}
}

func TestUploadFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("cv.pdf", []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("folder", 0o700); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "cv.pdf")

	got, err := clitest.ParseCmd(t, NewCmdUpload, []string{"e14", "cv.pdf", abs})
	if err != nil {
		t.Fatal(err)
	}
	want := calls.ActRequest{Kind: "upload", Target: "e14", Files: []string{abs, abs}}
	if diff := cmp.Diff(want, got.Request); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}

	for _, bad := range []string{"missing.pdf", "folder"} {
		got, err = clitest.ParseCmd(t, NewCmdUpload, []string{"e14", bad})
		if !errors.Is(err, calls.ErrBadInput) {
			t.Errorf("upload %s: err = %v, want ErrBadInput", bad, err)
		}
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("upload %s: exit %d, want %d", bad, cmdutil.ExitCode(err), cmdutil.ExitUsage)
		}
		if got != nil {
			t.Errorf("upload %s: runF was called", bad)
		}
	}
}

func TestActRun(t *testing.T) {
	tests := []struct {
		name     string
		req      calls.ActRequest
		result   calls.Outcome
		json     bool
		wantOut  string
		wantErr  string
		wantCall calls.ActRequest
	}{
		{
			name:    "click navigates",
			req:     calls.ActRequest{Kind: "click", Target: "e12", Button: "left", Count: 1},
			result:  calls.Outcome{URL: "https://shop.test/cart", Title: "Cart", Navigated: true},
			wantOut: "clicked → https://shop.test/cart \"Cart\"\n",
		},
		{
			name: "new tab and dialog",
			req:  calls.ActRequest{Kind: "click", Target: "e3", Button: "middle"},
			result: calls.Outcome{URL: "https://a.test/", NewTabs: []calls.TabInfo{{Index: 1, URL: "https://b.test/", Title: "B"}},
				Dialog: &calls.Dialog{Type: "confirm", Message: "Sure?"}},
			wantOut: "middle-clicked\n" +
				"new tab [1] https://b.test/ \"B\" — switch with \"waymark tab switch 1\"\n" +
				"a confirm dialog is open: \"Sure?\" — answer with \"waymark dialog accept\" or \"waymark dialog dismiss\"\n",
		},
		{
			name: "a banner closed first, and a download",
			req:  calls.ActRequest{Kind: "click", Target: "e7", Button: "left", Count: 1},
			result: calls.Outcome{URL: "https://a.test/files", Closed: `closed the cookie banner by "Reject all"`,
				Downloads: []calls.Download{{Name: "report.csv", Path: "/tmp/d/report.csv", Bytes: 100, State: calls.DownloadCompleted}}},
			wantOut: "clicked\n" +
				"before acting, closed the cookie banner by \"Reject all\"\n" +
				"downloaded report.csv (100 bytes) to /tmp/d/report.csv\n",
		},
		{
			name:    "an alert dialog",
			req:     calls.ActRequest{Kind: "click", Target: "e3", Button: "left", Count: 1},
			result:  calls.Outcome{URL: "https://a.test/", Dialog: &calls.Dialog{Type: "alert", Message: "Saved"}},
			wantOut: "clicked\nan alert dialog is open: \"Saved\" — answer with \"waymark dialog accept\" or \"waymark dialog dismiss\"\n",
		},
		{
			name:    "a submit the browser's validation stopped",
			req:     calls.ActRequest{Kind: "click", Target: "e4", Button: "left", Count: 1},
			result:  calls.Outcome{URL: "https://a.test/", NotSent: &calls.NotSent{Invalid: []calls.InvalidField{{Role: "textbox", Name: "Email", Message: "Please fill out this field."}}}},
			wantOut: "clicked; the form was not sent: 1 field is invalid: textbox \"Email\" — Please fill out this field.\n",
		},
		{
			name:    "a stopped submit in json",
			req:     calls.ActRequest{Kind: "press", Key: "Enter"},
			result:  calls.Outcome{URL: "https://a.test/", NotSent: &calls.NotSent{Invalid: []calls.InvalidField{{Role: "textbox", Name: "Email", Message: "Please fill out this field."}, {Role: "checkbox", Name: "I agree", Message: "Please check this box if you want to proceed."}}}},
			json:    true,
			wantOut: `{"ok":true,"data":{"url":"https://a.test/","title":"","not_sent":{"invalid":[{"role":"textbox","name":"Email","message":"Please fill out this field."},{"role":"checkbox","name":"I agree","message":"Please check this box if you want to proceed."}]}}}` + "\n",
		},
		{
			name:    "fill does not echo the value",
			req:     calls.ActRequest{Kind: "fill", Target: "e5", Value: "hunter2"},
			result:  calls.Outcome{URL: "https://a.test/login"},
			wantOut: "filled\n",
		},
		{
			name:    "press on focused",
			req:     calls.ActRequest{Kind: "press", Key: "Enter"},
			wantOut: "pressed Enter\n",
		},
		{
			name:    "scroll",
			req:     calls.ActRequest{Kind: "scroll", Direction: "down", Pixels: 300},
			wantOut: "scrolled down 300px\n",
		},
		{
			name:    "json",
			req:     calls.ActRequest{Kind: "check", Target: "e2"},
			result:  calls.Outcome{URL: "https://a.test/", Title: "A"},
			json:    true,
			wantOut: `{"ok":true,"data":{"url":"https://a.test/","title":"A"}}` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodAct: tt.result}}
			common, out, errOut := clitest.NewCommon(fc, tt.json, false)
			if err := actRun(context.Background(), &ActOptions{Common: common, Request: tt.req}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantOut, out.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantErr, errOut.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			want := []clitest.FakeCall{{Session: "s1", Method: calls.MethodAct, Params: tt.req}}
			if diff := cmp.Diff(want, fc.Calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}
