package adversarial

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
)

// Bad input, attacked: files that are not files, controls named in ways
// the outline reads and a plain text read does not, changes that leave the
// page, and pages too long to read whole. Each gets a clear outcome or a
// clear error of the right category, never a hang or "internal". (The CLI's
// own paths — run --record and record stop to a path that cannot be
// written — are internal/cli's tests: TestRunRecordToBadPathRunsNothing,
// TestRecordStopUnwritableKeepsRecording.)

const minimalRoutine = `{"format":"waymark.routine/1","name":"r","version":1,"steps":[{"id":"open","kind":"goto","url":"http://shop.test/"}]}`

func TestRoutinePathsThatAreNotFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() { // unblocks a Load that opened a pipe to read
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{
		"a FIFO (issue 12)":      fifo,
		"a symlink to a FIFO":    link,
		"a character device":     "/dev/zero",
		"a folder":               dir,
		"a file that is missing": filepath.Join(dir, "nope.json"),
	} {
		t.Run(name, func(t *testing.T) {
			errc := make(chan error, 1)
			go func() { _, err := routine.Load(path); errc <- err }()
			select {
			case err := <-errc:
				if !errors.Is(err, calls.ErrBadInput) || calls.Hint(err) == "" {
					t.Fatalf("%v, want bad_input with a hint", err)
				}
			case <-time.After(3 * time.Second):
				t.Fatal("Load still blocks after 3 s")
			}
		})
	}
}

func TestRoutineWithAByteOrderMark(t *testing.T) {
	t.Parallel()
	for name, prefix := range map[string]string{"UTF-8 BOM (issue 12)": "\xEF\xBB\xBF", "BOM and white space": "\xEF\xBB\xBF \n"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			if err := os.WriteFile(path, []byte(prefix+minimalRoutine), 0o600); err != nil {
				t.Fatal(err)
			}
			if r, err := routine.Load(path); err != nil || len(r.Steps) != 1 {
				t.Fatalf("Load: %+v, %v", r, err)
			}
		})
	}
}

// TestControlsNamedByWhatTheyHold: controls whose name comes from what
// they hold, not from their text, are pressed by the ref the outline gave.
func TestControlsNamedByWhatTheyHold(t *testing.T) {
	t.Parallel()
	b := daemonBrowser(t)
	for _, tc := range []struct{ name, html, line string }{
		{"button holding an image (issue 12)", `<button onclick="document.title='hit'"><img alt="Save" src="/none.png"></button>`, `button "Save"`},
		{"link holding an image", `<a href="#x" onclick="document.title='hit'"><img alt="Next page" src="/none.png"></a>`, `link "Next page"`},
		{"button holding an svg with a title", `<button onclick="document.title='hit'"><svg width=12 height=12><title>Close</title></svg></button>`, `button "Close"`},
		{"button holding a labelled span", `<button onclick="document.title='hit'"><span aria-label="Delete item"></span></button>`, `button "Delete item"`},
		{"image input", `<form onsubmit="document.title='hit'; return false"><input type=image alt="Search" src="/none.png"></form>`, `button "Search"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewServer(t, map[string]string{"/": "<title>Named</title>" + tc.html})
			s, ctx := daemonSession(t, b, "input")
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
			if err != nil {
				t.Fatal(err)
			}
			ref := ""
			for _, l := range strings.Split(snap.Text, "\n") {
				if strings.Contains(l, tc.line) {
					if i := strings.Index(l, "[ref="); i >= 0 {
						ref = strings.TrimSuffix(strings.Fields(l[i+5:])[0], "]")
					}
				}
			}
			if ref == "" {
				t.Fatalf("no %s in\n%s", tc.line, snap.Text)
			}
			out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "@" + ref})
			if err != nil {
				t.Fatalf("click @%s: %v (code %s)", ref, err, calls.Code(err))
			}
			if out.Title != "hit" {
				t.Errorf("the click did not reach the control: %+v", out)
			}
		})
	}
}

// TestChangesThatLeaveThePage: a change whose handler sends the form or
// navigates is reported as the navigation it caused, and the server gets
// the request once (an error here would invite a second send).
func TestChangesThatLeaveThePage(t *testing.T) {
	t.Parallel()
	b := daemonBrowser(t)
	for _, tc := range []struct {
		name string
		html string
		act  calls.ActRequest
	}{
		{"check a box that sends its form (issue 12)", `<form action=/sent><label><input type=checkbox name=ok onchange="this.checked=!this.checked; this.form.submit()"> Agree</label></form>`,
			calls.ActRequest{Kind: calls.ActCheck, Target: "label=Agree"}},
		{"uncheck a box that sends its form", `<form action=/sent><label><input type=checkbox name=ok checked onchange="this.checked=!this.checked; this.form.submit()"> Agree</label></form>`,
			calls.ActRequest{Kind: calls.ActUncheck, Target: "label=Agree"}},
		{"check a radio that navigates", `<label><input type=radio name=r onchange="this.checked=false; location.href='/sent'"> Express</label>`,
			calls.ActRequest{Kind: calls.ActCheck, Target: "label=Express"}},
		{"select whose change sends its form", `<form action=/sent><label>Plan <select name=p onchange="this.form.submit()"><option>a<option>b</select></label></form>`,
			calls.ActRequest{Kind: calls.ActSelect, Target: "label=Plan", Values: []string{"b"}}},
		{"click a box that sends its form", `<form action=/sent><label><input type=checkbox name=ok onchange="this.form.submit()"> Agree</label></form>`,
			calls.ActRequest{Kind: calls.ActClick, Target: "label=Agree"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewServer(t, map[string]string{"/": "<title>Form</title>" + tc.html, "/sent": "<title>Sent</title>"})
			s, ctx := daemonSession(t, b, "input")
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			out, err := s.Act(ctx, tc.act)
			if err != nil {
				t.Fatalf("%v (code %s), want the navigation as the outcome", err, calls.Code(err))
			}
			// Where it went; the new page's title is the next look's to
			// tell while the page loads (driver/pending.go).
			if !out.Navigated || !strings.Contains(out.URL, "/sent") || (out.Title != "Sent" && out.Title != "") {
				t.Errorf("outcome %+v, want it to say the page went to /sent", out)
			}
			if n := srv.Count("", "/sent"); n != 1 {
				t.Errorf("/sent was asked for %d times", n)
			}
		})
	}
}

// TestExtractOfAPageTooLongForTheBudget: the model is asked at most the
// budget's number of times for one extract, and the result says the page
// was not read whole.
func TestExtractOfAPageTooLongForTheBudget(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	for i := 0; i < 6000; i++ {
		rows.WriteString("<li>Row item with some words</li>")
	}
	srv := NewServer(t, map[string]string{"/": "<title>Big</title><ul>" + rows.String() + "</ul>"})
	s, ctx := daemonSession(t, daemonBrowser(t), "extract")
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	steps := make([]scripted.Step, 8)
	for i := range steps {
		steps[i] = scripted.Data(pilot.PurposeExtract, `[]`)
	}
	m := Wrap(scripted.New(steps...))
	res, err := pilot.New(s, m, &pilot.Options{MaxPageChars: 8000}).Extract(ctx, "the rows", json.RawMessage(`{"type":"array","items":{"type":"string"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(m.Turns()); n > 8 {
		t.Errorf("%d model calls, over the budget of 8", n)
	}
	if res.Parts <= res.Chunks || res.Note == "" {
		t.Errorf("read %d of %d parts, note %q: the result does not say the page was cut", res.Chunks, res.Parts, res.Note)
	}
}
