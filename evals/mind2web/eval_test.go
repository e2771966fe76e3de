//go:build evals

package mind2web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/evals/evaltest"
	"github.com/waymark-dev/waymark/evals/report"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/pilot"
)

// TestMain closes the shared browser after the eval.
func TestMain(m *testing.M) { evaltest.Main(m) }

// move is one step of a scripted agent: an op on the element the outline
// names with role and name, or done.
type move struct {
	op, role, name, value string
	done                  string // the agent's closing words; the move is "done"
	appears               string // done: a text the page shows
}

// agent is a scripted agent model: it follows its plan for the task,
// finding each element's ref in the outline of the turn, as a model
// reads it.
type agent struct {
	mu    sync.Mutex
	plans map[string][]move // by the task's words
	calls int
}

func (a *agent) Next(_ context.Context, t pilot.Turn) (pilot.Reply, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	if t.Purpose != pilot.PurposeDecide {
		return pilot.Reply{}, fmt.Errorf("the agent got a %s call", t.Purpose)
	}
	text := t.Messages[len(t.Messages)-1].Text
	for task, plan := range a.plans {
		if !strings.Contains(text, task) {
			continue
		}
		if len(plan) == 0 {
			return pilot.Reply{}, fmt.Errorf("the plan for %q is spent", task)
		}
		m := plan[0]
		a.plans[task] = plan[1:]
		var d map[string]any
		if m.done != "" {
			d = map[string]any{"thought": m.done, "action": map[string]any{"type": "done", "expect": map[string]any{"text_appears": m.appears}}}
		} else {
			re := regexp.MustCompile(regexp.QuoteMeta(m.role+` "`+m.name+`"`) + `[^\n]*\[ref=(e[0-9]+)\]`)
			ref := re.FindStringSubmatch(text)
			if ref == nil {
				return pilot.Reply{}, fmt.Errorf("no %s %q in the outline:\n%s", m.role, m.name, text)
			}
			act := map[string]any{"type": "act", "op": m.op, "ref": ref[1]}
			if m.value != "" {
				act["value"] = m.value
			}
			d = map[string]any{"thought": "next: " + m.op + " " + m.name, "action": act}
		}
		b, _ := json.Marshal(d)
		return pilot.Reply{Data: b, Model: "scripted-agent"}, nil
	}
	return pilot.Reply{}, fmt.Errorf("no plan for the turn:\n%s", text)
}

// judge is a scripted judge: its outcome for each task is given, as a
// model's would be; it records what it was sent, so the eval can check
// the runner sent a picture for each step and fenced the actions.
type judge struct {
	mu      sync.Mutex
	outcome map[string]string // by task words: success or failure
	images  int
	fenced  bool
	calls   int
}

func (j *judge) Next(_ context.Context, t pilot.Turn) (pilot.Reply, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.calls++
	if t.Purpose != PurposeJudge {
		return pilot.Reply{}, fmt.Errorf("the judge got a %s call", t.Purpose)
	}
	msg := t.Messages[0]
	j.images += len(msg.Images)
	switch t.SchemaName {
	case "key_points":
		return pilot.Reply{Data: json.RawMessage(`{"key_points":["the item named in the task"]}`)}, nil
	case "screenshot_score":
		return pilot.Reply{Data: json.RawMessage(`{"reasoning":"the page after the step","score":4}`)}, nil
	}
	if strings.Contains(msg.Text, "<page_content") {
		j.fenced = true
	}
	for task, out := range j.outcome {
		if strings.Contains(msg.Text, task) {
			return pilot.Reply{Data: json.RawMessage(`{"thoughts":"scripted","status":"` + out + `"}`)}, nil
		}
	}
	return pilot.Reply{}, fmt.Errorf("no outcome scripted for:\n%s", msg.Text)
}

// TestLocalTasks runs the local task set (testdata/local.json, Online-
// Mind2Web's format) on the demo shop on loopback with a scripted agent
// and judge, and checks the runner against what the shop holds: the task
// whose cart the shop shows filled is the one judged success among the
// cart tasks, each step sent the judge one screenshot, and the actions
// reached it fenced.
func TestLocalTasks(t *testing.T) {
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	defer srv.Close()
	b, err := os.ReadFile("testdata/local.json")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := ParseTasks([]byte(strings.ReplaceAll(string(b), "{{base}}", srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	ag := &agent{plans: map[string][]move{
		"Add one Trail Mug": {
			{op: "click", role: "link", name: "A product: Trail Mug"},
			{op: "click", role: "button", name: "Add to cart"},
			{done: "The Trail Mug is in the cart.", appears: "to your cart"},
		},
		"price of the Water Bottle": {
			{op: "click", role: "link", name: "Products"},
			{done: "The Water Bottle costs the price the list shows.", appears: "Water Bottle"},
		},
		"Unicorn Lamp": { // a shop with no such lamp: the agent claims it anyway
			{op: "click", role: "link", name: "Products"},
			{done: "I added the Unicorn Lamp.", appears: "Products"},
		},
	}}
	jd := &judge{outcome: map[string]string{"Add one Trail Mug": "success", "price of the Water Bottle": "success", "Unicorn Lamp": "failure"}}
	var results []Result
	steps := 0
	for _, task := range tasks {
		s, ctx := drivertest.Session(t, task.ID, 2*time.Minute)
		before := len(site.Sessions())
		r, err := Run(ctx, s, task, Options{Agent: ag, Judge: Judge{Model: jd}, AllowSubmit: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.JudgeError != "" {
			t.Errorf("%s: judge: %s", task.ID, r.JudgeError)
		}
		lines := 0
		for _, id := range site.Sessions()[before:] {
			lines += len(site.Session(id).Cart)
		}
		wantCart := map[bool]int{true: 1, false: 0}[task.ID == "local-add-mug"]
		if lines != wantCart {
			t.Errorf("%s: the shop holds %d cart lines, want %d", task.ID, lines, wantCart)
		}
		if !r.Done || r.Screenshots != r.Steps || r.Steps == 0 {
			t.Errorf("%s: done %v, %d steps, %d screenshots (%s)", task.ID, r.Done, r.Steps, r.Screenshots, r.Reason)
		}
		steps += r.Steps
		results = append(results, r)
		t.Logf("%s: done %v, verdict %v, %d steps, %d agent calls, %d judge calls", task.ID, r.Done, r.Verdict.Success, r.Steps, r.AgentCalls, r.Verdict.Calls)
	}
	sum := Summarize(results)
	if sum.Success != 2 || sum.Done != 3 {
		t.Errorf("summary %+v: want 3 done, 2 judged success", sum)
	}
	if jd.images != steps || !jd.fenced {
		t.Errorf("the judge got %d screenshots for %d steps, fenced actions %v", jd.images, steps, jd.fenced)
	}
	md := fmt.Sprintf("The runner on a local task set of %d tasks in Online-Mind2Web's format (the demo shop on loopback), with a scripted agent and judge: "+
		"this tests the runner, not a model. Run live with `go run ./evals/mind2web/cmd/mind2web --tasks FILE` and a model key.\n\n"+
		"| tasks | agent said done | judged success | agent calls | judge calls |\n|---|---|---|---|---|\n| %d | %d | %d (%.0f %%) | %d | %d |\n",
		sum.Tasks, sum.Tasks, sum.Done, sum.Success, sum.SuccessPct, sum.AgentCalls, sum.JudgeCalls)
	if err := report.Write(report.Dir, report.Section{Name: "mind2web", Figures: map[string]any{"mode": "local, scripted", "summary": sum}, Markdown: md}); err != nil {
		t.Error(err)
	}
}
