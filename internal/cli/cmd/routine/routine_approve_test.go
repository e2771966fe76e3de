package routine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// approvedRoutine records a person's approval of its Place order.
const approvedRoutine = `{"format": "waymark.routine/1", "name": "order", "version": 1, "steps": [
  {"id": "open", "kind": "goto", "url": "http://shop.test/checkout"},
  {"id": "note", "kind": "act", "op": "fill", "target": {"locator": "label=Note", "fingerprint": {"role": "textbox", "name": "note"}}, "value": {"literal": "hi"}},
  {"id": "pay", "kind": "act", "op": "click", "target": {"locator": "css=#pay", "fingerprint": {"role": "button", "name": "place order"}},
   "approved": {"action": "click", "path": "/checkout", "control": "button \"Place order\"", "why": "submits the form", "target": "POST /order", "fixed": {"amount": "10"}}},
  {"id": "find", "kind": "act", "op": "press", "key": "Enter", "target": {"locator": "label=Order number", "fingerprint": {"role": "textbox", "name": "order number"}},
   "approved": {"action": "press Enter", "path": "/orders", "control": "input[type=search]", "why": "Enter in a form field submits the form", "target": "GET /orders", "fields": ["q"]}}]}
`

// TestRoutineApprove: only a person at a terminal approves a routine
// file; their yes binds the approval to the file as it is, an edit drops
// it, and they are shown what changed and what they approve.
func TestRoutineApprove(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "order.json")
	if err := os.WriteFile(file, []byte(approvedRoutine), 0o600); err != nil {
		t.Fatal(err)
	}
	holds := func() bool {
		r, trust, err := approval.Default(nil).Load(file)
		if err != nil {
			t.Fatal(err)
		}
		return trust.Holds(r)
	}
	run := func(tty bool, answer string) (string, error) {
		f, in, _, errOut := clitest.NewFactory(&clitest.FakeCaller{})
		f.IO.SetStdinTTY(tty)
		f.IO.SetStderrTTY(tty)
		in.WriteString(answer)
		err := routineApproveRun(context.Background(), &RoutineApproveOptions{Common: f.Common(), File: file})
		return errOut.String(), err
	}
	if holds() {
		t.Fatal("a file no one approved holds")
	}
	if _, err := run(false, "y\n"); err == nil || holds() {
		t.Fatalf("approved with no terminal: %v", err)
	}
	out, err := run(true, "n\n")
	var ee *cmdutil.ExitError
	if !errors.As(err, &ee) || holds() {
		t.Fatalf("no: %v, holds %v", err, holds())
	}
	for _, want := range []string{"no person saved or approved", "It records 2 approved submits",
		`pay (steps[2]): click button "Place order" on /checkout: it submits the form; sends the form POST /order; fixed amount=10`,
		// The submit check's older reason, as recorded, reads as the others.
		`find (steps[3]): press Enter input[type=search] on /orders: it submits the form; sends the form GET /orders; fields q`} {
		if !strings.Contains(out, want) {
			t.Errorf("the question lacks %q:\n%s", want, out)
		}
	}
	if _, err := run(true, "y\n"); err != nil || !holds() {
		t.Fatalf("yes: %v, holds %v", err, holds())
	}
	// An edit drops the approval; approving again says what changed.
	if err := os.WriteFile(file, []byte(strings.Replace(approvedRoutine, `"hi"`, `"ho"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if holds() {
		t.Fatal("the edited file holds")
	}
	out, err = run(true, "y\n")
	if err != nil || !holds() || !strings.Contains(out, "changed after it was saved: step note (steps[1]) changed") {
		t.Fatalf("approve the edit: %v, holds %v:\n%s", err, holds(), out)
	}
}
