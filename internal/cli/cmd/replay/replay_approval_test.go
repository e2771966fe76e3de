package replay

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/routine"
)

// TestReplayPressesOnlyTheFileAPersonSaved: `waymark replay` presses a
// recorded approval without asking only while the approval authority says
// the file is the one the person saved; before that, and after an edit,
// the replay stops needs-approval (exit 16) saying how to approve it.
func TestReplayPressesOnlyTheFileAPersonSaved(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	gate := calls.Approval{Action: "click", URL: "http://shop.test/checkout", Control: `button "Place order"`, Why: "submits the form",
		Target: "POST http://shop.test/order", Form: map[string]string{"amount": "10"}, Fixed: []string{"amount"}, Token: "t"}
	ap, _ := json.Marshal(routine.ApprovedOf(gate))
	rt := strings.Replace(clitest.CheckoutRoutine, `"fingerprint": {"role": "button", "name": "Place order"}}}`,
		`"fingerprint": {"role": "button", "name": "Place order"}}, "approved": `+string(ap)+`}`, 1)
	file := filepath.Join(t.TempDir(), "checkout.json")
	if err := os.WriteFile(file, []byte(rt), 0o600); err != nil {
		t.Fatal(err)
	}
	var pressed atomic.Int32
	c := clitest.ShopCaller(nil)
	shop := c.Reply
	c.Reply = func(method string, params any) (any, error) {
		if req, ok := params.(calls.ActRequest); ok && method == calls.MethodAct && req.Kind == calls.ActClick {
			if req.Approve == nil {
				data, _ := json.Marshal(gate)
				return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: gate.Line() + ", so it needs approval; nothing was pressed", Data: data}
			}
			pressed.Add(1)
		}
		return shop(method, params)
	}
	replayIt := func() (string, error) {
		o, _, errOut := replayOpts(c, false, false, file)
		o.Submits = "ask"
		get := o.Common.Getenv
		o.Common.Getenv = func(k string) string {
			if k == "XDG_STATE_HOME" {
				return state
			}
			return get(k)
		}
		err := replayRun(context.Background(), o)
		return errOut.String(), err
	}
	stops := func(what string) {
		t.Helper()
		out, err := replayIt()
		var ee *cmdutil.ExitError
		if !errors.As(err, &ee) || ee.Code != 16 || pressed.Load() != 0 || !strings.Contains(out, "approve it again with `waymark routine approve ") {
			t.Fatalf("%s: %v, pressed %d:\n%s", what, err, pressed.Load(), out)
		}
	}
	stops("no person saved it")
	if err := approval.Default(nil).Grant(file, "record stop"); err != nil {
		t.Fatal(err)
	}
	if out, err := replayIt(); err != nil || pressed.Load() != 1 {
		t.Fatalf("the person's file: %v, pressed %d:\n%s", err, pressed.Load(), out)
	}
	pressed.Store(0)
	if err := os.WriteFile(file, []byte(strings.Replace(rt, "shop.test/checkout", "shop.test/checkout?x=1", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	stops("edited")
}
