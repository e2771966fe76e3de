package adversarial

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// fireLate gives lateTold's cue on s and waits for the page to say how the
// send ended: the send goes after the step that armed it, before the
// replay's next step.
func fireLate(t *testing.T, ctx context.Context, s calls.Session) {
	t.Helper()
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: goJS, MainWorld: true}); err != nil {
		t.Error(err)
		return
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res, err := s.Eval(ctx, calls.EvalRequest{Expression: ended, MainWorld: true})
		if err == nil && string(res.Value) == "true" {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("the page's send never ended: %v", err)
			return
		}
	}
}

// cueAfterClicks is a replay's Progress that gives the cue after each
// click the replay did: the late send of the click goes once its step
// ended, as a timer's would.
func cueAfterClicks(t *testing.T, ctx context.Context, s calls.Session, next func(replay.StepEvent)) func(replay.StepEvent) {
	return func(ev replay.StepEvent) {
		if next != nil {
			next(ev)
		}
		if ev.Step.Op == calls.ActClick && ev.Step.Status == "ok" {
			fireLate(t, ctx, s)
		}
	}
}

// recordLate records lateTold by hand, as a person does at a terminal
// (internal/sessions): open it, click Continue (by the ref its look
// gives), and once its late send was stopped, click it again, which asks,
// and with the approval the person gives is pressed and recorded as
// approved. The routine: goto, click, click (approved).
func recordLate(t *testing.T, srv *Server) string {
	t.Helper()
	return recordLateBy(t, srv, "")
}

// recordLateBy is recordLate with Continue clicked by target ("css=#b");
// "" clicks it by its ref.
func recordLateBy(t *testing.T, srv *Server, target string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	rec := calls.Remote{Caller: m, Session: "late-record-" + strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())}
	defer func() { _ = rpc.Daemon{Caller: m, Session: rec.Session}.CloseSession(context.Background()) }()
	if _, err := rec.RecordStart(ctx, calls.RecordStartRequest{Name: "late"}); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	snap, err := rec.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(snap.Text, `button "Continue" [ref=`)
	if !ok {
		t.Fatalf("no Continue in:\n%s", snap.Text)
	}
	if target == "" {
		target = "@" + after[:strings.IndexByte(after, ']')]
	}
	// The person's command sends no Submits (pressAsPerson).
	if _, err := rec.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: target}); err != nil {
		t.Fatal(err)
	}
	fireLate(t, ctx, rec)
	if _, err := rec.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: target}); err != nil {
		t.Fatal(err)
	}
	fireLate(t, ctx, rec)
	got, err := rec.RecordStop(ctx, calls.RecordStopRequest{Name: "late"})
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Count("POST", "/pay"); n != 1 {
		t.Fatalf("recording: the person's approved send reached the server %d times, want 1", n)
	}
	srv.Reset()
	if !strings.Contains(string(got.Routine), `"approved"`) || !strings.Contains(string(got.Routine), "/pay") {
		t.Fatalf("the recording kept no approval of the late send:\n%s", got.Routine)
	}
	return string(got.Routine)
}

// oneClickThen is the routine rt less its last step (the click again),
// with the steps more after its click.
func oneClickThen(t *testing.T, rt string, more ...routine.Step) string {
	t.Helper()
	r, err := routine.Parse([]byte(rt))
	if err != nil {
		t.Fatal(err)
	}
	r.Steps = append(r.Steps[:len(r.Steps)-1], more...)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLateSendInAReplay: a routine whose click's handler sends after the
// step. Replayed with no person's approval (none recorded, or one the
// authority does not hold), the send never reaches the server and the
// replay stops as needs-approval; replayed from the file the person saved
// with their approval, it goes exactly once.
func TestLateSendInAReplay(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": lateTold, "/next": "<title>Next</title>"})
	recorded := recordLate(t, srv)
	for _, tt := range []struct {
		name    string
		rt      string
		trusted bool // saved by the person (the approval authority holds it)
		pays    int
	}{
		{"one click, nothing approved", oneClickThen(t, recorded), false, 0},
		// The check waits for what the stopped send would have brought.
		{"one click, then a check", oneClickThen(t, recorded, routine.Step{ID: "thanks", Kind: routine.KindVerify, Check: &routine.Check{Text: "Thank you"}}), false, 0},
		// The goto would leave the page that tells of the stopped send.
		{"one click, then a goto", oneClickThen(t, recorded, routine.Step{ID: "next", Kind: routine.KindGoto, URL: srv.URL("/next")}), false, 0},
		{"the approval recorded, not a person's file", recorded, false, 0},
		{"the approval recorded, the person's file", recorded, true, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := routine.Parse([]byte(tt.rt))
			if err != nil {
				t.Fatal(err)
			}
			var trust *approval.Trust
			if tt.trusted {
				r, trust = savedByPerson(t, tt.rt)
			}
			s, ctx := session(t)
			srv.Reset()
			res, err := replay.Run(ctx, s, r, replay.Options{CheckTimeout: -1, Submits: replay.SubmitsAsk, Approvals: trust,
				Progress: cueAfterClicks(t, ctx, s, nil)})
			if err != nil {
				t.Fatal(err)
			}
			if n := srv.Count("POST", "/pay"); n != tt.pays {
				t.Fatalf("the late send reached the server %d times, want %d (replay %s %s %q)", n, tt.pays, res.Status, res.Cause, res.Message)
			}
			if tt.pays == 0 && (res.Status != replay.StatusStopped || res.Cause != replay.CauseNeedsApproval || !strings.Contains(res.Message, "/pay")) {
				t.Errorf("replay %s %s %q, want a needs-approval stop naming the send", res.Status, res.Cause, res.Message)
			}
			if tt.pays == 1 && res.Status != replay.StatusOK {
				t.Errorf("replay %s %s %q, want ok", res.Status, res.Cause, res.Message)
			}
		})
	}
}

// TestLateSendMCPRoutineIsNotAPerson: an MCP client hands the replay
// tool the routine a person recorded, approval and all, as JSON of its
// own. The approval is no one's: the click again, whose late send it
// recorded, asks the person; a client that cannot ask gets a
// needs-approval stop with nothing sent, and the person's yes sends it
// once.
func TestLateSendMCPRoutineIsNotAPerson(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": lateTold})
	var inline map[string]any
	if err := json.Unmarshal([]byte(recordLate(t, srv)), &inline); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		person *asker
		pays   int
	}{
		{"a client that cannot ask", nil, 0},
		{"the person says no", &asker{answer: "decline"}, 0},
		{"the person says yes", &asker{answer: "accept"}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, ctx := session(t)
			call := mcpClientWith(t, s, tt.person, approval.New(t.TempDir()), func(o replay.Options) replay.Options {
				o.Progress = cueAfterClicks(t, ctx, s, o.Progress)
				return o
			})
			srv.Reset()
			res := call("replay", map[string]any{"routine": inline})
			text := toolText(res)
			if n := srv.Count("POST", "/pay"); n != tt.pays {
				t.Fatalf("the late send reached the server %d times, want %d:\n%s", n, tt.pays, text)
			}
			if tt.person != nil && tt.person.count() != 1 {
				t.Errorf("the person was asked %d times, want once", tt.person.count())
			}
			if tt.pays == 0 && (!res.IsError || !strings.Contains(text, "needs-approval")) {
				t.Errorf("want a needs-approval stop, got:\n%s", text)
			}
			if tt.pays == 1 && res.IsError {
				t.Errorf("the person's yes: %s", text)
			}
		})
	}
}
