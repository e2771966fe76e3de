//go:build evals

package drift

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// record records each scenario's routine by hand on its original page,
// through the daemon's handler as `waymark record start`, `open`, `act
// click @REF` and `record stop` reach it: the ref is read from the
// outline, as a person or an agent reads it. The recording's own press
// must reach the server as the target's.
func record(t *testing.T, cases []Case, srv *Server, base string) map[string]*routine.Routine {
	m := sessions.New(driver.Options{ExecPath: browsertest.Chrome(t), Args: browsertest.GuardArgs})
	defer m.Close()
	out := map[string]*routine.Routine{}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		r, err := recordOne(ctx, m, c, srv, base)
		cancel()
		if err != nil {
			t.Errorf("%s: recording: %v", c.Name, err)
			continue
		}
		out[c.Name] = r
	}
	return out
}

func recordOne(ctx context.Context, m *sessions.Manager, c Case, srv *Server, base string) (*routine.Routine, error) {
	key := "rec/" + c.Name
	srv.Set(c.Name, key, c.Body)
	session := "rec-" + c.Name
	call := func(method string, req any) (any, error) {
		b, err := json.Marshal(req)
		if err != nil {
			return nil, err
		}
		return m.Handle(ctx, session, method, b)
	}
	if _, err := call(calls.MethodRecordStart, calls.RecordStartRequest{Name: c.Name}); err != nil {
		return nil, err
	}
	if _, err := call(calls.MethodOpen, calls.OpenRequest{URL: base + "/app/" + c.Name}); err != nil {
		return nil, err
	}
	got, err := call(calls.MethodSnapshot, calls.SnapshotRequest{Interactive: true, Full: true})
	if err != nil {
		return nil, err
	}
	aim := AimAt(c.Body)
	ref := RefOf(got.(*calls.Snapshot).Text, aim.Role, aim.Name, aim.Nth, "")
	if ref == "" {
		return nil, fmt.Errorf("no %s %q (#%d) in the outline:\n%s", aim.Role, aim.Name, aim.Nth, got.(*calls.Snapshot).Text)
	}
	if _, err := call(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "@" + ref, Submits: "allow"}); err != nil {
		return nil, err
	}
	stopped, err := call(calls.MethodRecordStop, calls.RecordStopRequest{})
	if err != nil {
		return nil, err
	}
	if hits := srv.Hits(key); len(hits) != 1 || hits[0] != Target {
		return nil, fmt.Errorf("the recording's press reached the server as %q, not the target", hits)
	}
	var r routine.Routine
	if err := json.Unmarshal(stopped.(*calls.RecordStopResult).Routine, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// RefOf returns the ref of the nth outline line showing a control of
// role with the words name (case folded); after, when set, first skips
// to the first outline line holding those words (a row's key). Lines
// that are not the outline's ("- role …") are passed over.
func RefOf(outline, role, name string, nth int, after string) string {
	var lines []string
	for _, l := range strings.Split(outline, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "- ") {
			lines = append(lines, l)
		}
	}
	if after != "" {
		for i, l := range lines {
			if strings.Contains(strings.ToLower(l), strings.ToLower(after)) {
				lines = lines[i:]
				break
			}
		}
	}
	want := strings.ToLower(fmt.Sprintf("- %s %q", role, name))
	for _, l := range lines {
		i := strings.Index(l, "[ref=")
		if i < 0 || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(l)), want) {
			continue
		}
		if nth > 0 {
			nth--
			continue
		}
		rest := l[i+5:]
		return rest[:strings.IndexByte(rest, ']')]
	}
	return ""
}

// healer answers the heal question as a real model would: it reads the
// prompt and chooses the control of the recorded role whose words say
// what the step's did — the recorded words or their new ones — among
// what the prompt says stands where the element stood first, then on the
// page (after the recorded row's words, when the outline shows them).
// It counts its calls.
type healer struct {
	mu    sync.Mutex
	role  string
	names []string
	key   string
	calls int
}

func (h *healer) Next(_ context.Context, turn pilot.Turn) (pilot.Reply, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	if turn.Purpose != pilot.PurposeHeal || len(turn.Messages) == 0 {
		return pilot.Reply{}, fmt.Errorf("healer: a %s call", turn.Purpose)
	}
	page := turn.Messages[len(turn.Messages)-1].Text
	if f := os.Getenv("DRIFT_DUMP"); f != "" {
		_ = os.WriteFile(f, []byte(page), 0o644)
	}
	// What stands where the element stood, when the prompt says, is the
	// first place a model looks: the outline of the page may not show a
	// row's words at all.
	where := ""
	if _, rest, ok := strings.Cut(page, "Where it stood"); ok {
		if _, rest, ok = strings.Cut(rest, "<page_content>"); ok {
			block, _, _ := strings.Cut(rest, "</page_content>")
			for _, c := range strings.Split(strings.TrimSpace(block), "; ") {
				where += "- " + c + "\n"
			}
		}
	}
	for _, n := range h.names {
		if ref := RefOf(where, h.role, n, 0, ""); ref != "" {
			return pilot.Reply{Data: json.RawMessage(fmt.Sprintf(`{"action":"click","ref":%q,"reason":"it stands where the step's control stood"}`, ref)), Model: "healer"}, nil
		}
	}
	for _, n := range h.names {
		if ref := RefOf(page, h.role, n, 0, h.key); ref != "" {
			return pilot.Reply{Data: json.RawMessage(fmt.Sprintf(`{"action":"click","ref":%q,"reason":"it does what the step did"}`, ref)), Model: "healer"}, nil
		}
	}
	return pilot.Reply{Data: json.RawMessage(`{"action":"click","ref":"","reason":"nothing on the page does it"}`), Model: "healer"}, nil
}

// Run is one replay's outcome, as the server and waymark tell it.
type Run struct {
	Mode       string   `json:"mode"` // no-model, model
	Status     string   `json:"status"`
	Cause      string   `json:"cause,omitempty"`
	Message    string   `json:"message,omitempty"`
	ModelCalls int      `json:"model_calls"`
	Approvals  int      `json:"approvals,omitempty"`
	Heal       string   `json:"heal,omitempty"` // how the element was healed
	Hits       []string `json:"hits"`           // what reached the server
}

// replayAll replays each scenario's routine on each of its variants, in
// one session a scenario: with no model, and with the healer on the
// variants withModel takes.
func replayAll(t *testing.T, cases []Case, routines map[string]*routine.Routine, srv *Server, withModel func(Variant) bool, sess func(name string) (calls.Session, context.Context)) map[string][]Run {
	out := map[string][]Run{}
	for _, c := range cases {
		r := routines[c.Name]
		if r == nil {
			continue
		}
		s, ctx := sess(c.Name)
		aim := AimAt(c.Body)
		for _, v := range c.Variants {
			modes := []string{"no-model"}
			if withModel(v) {
				modes = append(modes, "model")
			}
			for _, mode := range modes {
				key := fmt.Sprintf("wm/%s/%s/%s", mode, c.Name, v.Name)
				srv.Set(c.Name, key, v.Body)
				approvals := 0
				opts := replay.Options{Submits: replay.SubmitsAllow, KeepHeals: replay.KeepNever, NoHand: true,
					Approve: func(context.Context, string, calls.Approval) (bool, error) { approvals++; return true, nil }}
				var h *healer
				if mode == "model" {
					h = &healer{role: aim.Role, names: append([]string{aim.Name}, c.Renames...), key: aim.ScopeKey}
					opts.Model = h
				}
				res, err := replay.Run(ctx, s, r, opts)
				run := Run{Mode: mode, Approvals: approvals}
				if err != nil {
					run.Status, run.Message = "error", err.Error()
				} else {
					run.Status, run.Cause, run.Message, run.ModelCalls = res.Status, string(res.Cause), res.Message, res.ModelCalls
					for _, hl := range res.Heals {
						run.Heal = hl.How
					}
				}
				if h != nil && h.calls != run.ModelCalls {
					t.Errorf("%s: the model was called %d times, the replay says %d", key, h.calls, run.ModelCalls)
				}
				run.Hits = srv.Hits(key)
				out[c.Name+"/"+v.Name] = append(out[c.Name+"/"+v.Name], run)
			}
		}
	}
	return out
}
