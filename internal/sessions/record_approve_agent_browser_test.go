package sessions

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// TestRecordKeepsNoApprovalOfAProgram: a session being recorded by hand
// may also be acted on by a program (the agent loop with --allow-submit,
// an MCP server whose [mcp] submits is "allow", a replay with --submits
// allow): they send Submits "allow", a blanket leave given in advance,
// not a person pressing this control. Their submit is done and recorded,
// but not as approved: a replay asks for it.
func TestRecordKeepsNoApprovalOfAProgram(t *testing.T) {
	t.Parallel()
	site := &orderSite{}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 60*time.Second)
	handle := h.in("agentapprove-rec")
	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "order"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/checkout"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Place order"]`, Submits: "allow"})
	if n := site.posts.Load(); n != 1 {
		t.Fatalf("the program's submit posted %d orders, want 1", n)
	}
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	r, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}
	last := r.Steps[len(r.Steps)-1]
	if last.Kind != routine.KindAct || last.Op != calls.ActClick {
		t.Fatalf("the submit is not the last step: %s", out.Routine)
	}
	if last.Approved != nil {
		t.Errorf("a program's submit is recorded as the person's approval: %+v", last.Approved)
	}
}
