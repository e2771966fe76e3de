//go:build evals

package rules

import (
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/evals/evaltest"
	"github.com/waymark-dev/waymark/evals/report"
	"github.com/waymark-dev/waymark/internal/adversarial"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// TestMain closes the shared browser after the eval.
func TestMain(m *testing.M) { evaltest.Main(m) }

// gotOne says whether one request is the task's answer: a POST to
// /submit (or a GET of t.Path) whose fields hold t.Want. A field wanted
// as "a,b" must hold those values, in any order.
func gotOne(r adversarial.Request, t Task) bool {
	s := &fakeLog{reqs: []adversarial.Request{r}}
	return s.got(t)
}

// fakeLog is the server's log at one moment.
type fakeLog struct{ reqs []adversarial.Request }

func (f *fakeLog) got(t Task) bool {
	for _, r := range f.reqs {
		var fields url.Values
		switch {
		case t.Path == "" && r.Method == "POST" && r.Path == "/submit":
			fields, _ = url.ParseQuery(r.Body)
		case t.Path != "" && r.Method == "GET" && r.Path == t.Path:
			fields, _ = url.ParseQuery(r.Query)
		default:
			continue
		}
		ok := true
		for k, v := range t.Want {
			have, want := slices.Clone(fields[k]), strings.Split(v, ",")
			slices.Sort(have)
			slices.Sort(want)
			ok = ok && slices.Equal(have, want)
		}
		if ok {
			return true
		}
	}
	return false
}

// outcome is how one way of giving a task went.
type outcome struct {
	ok    bool
	wrong bool   // something else reached the server
	why   string // the first error, when not ok
}

// serve starts the task's server: the page at /, a thank-you at /submit
// and every result and link the page may lead to.
func serve(t *testing.T, task Task) *adversarial.Server {
	srv := adversarial.NewServer(t, nil)
	srv.Handle("/", task.HTML)
	srv.Handle("/submit", "<!doctype html><title>Done</title><p>Thank you.")
	for i := 1; i <= 10; i++ {
		srv.Handle(fmt.Sprintf("/r/%d", i), "<!doctype html><title>Result</title><p>A result.")
		srv.Handle(fmt.Sprintf("/l/%d", i), "<!doctype html><title>Link</title><p>A page.")
	}
	return srv
}

// settle waits for the answer to reach the server (a fetch may leave
// after the click returned): up to a second after a way that went
// through, a fifth of one after a way that failed.
func settle(srv *adversarial.Server, task Task, went bool) outcome {
	log := &fakeLog{}
	tries := 10
	if went {
		tries = 50
	}
	for range tries {
		log.reqs = srv.Requests()
		if log.got(task) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	o := outcome{ok: log.got(task)}
	for _, r := range log.reqs {
		if r.Method == "POST" && r.Path == "/submit" || r.Method == "GET" && (strings.HasPrefix(r.Path, "/r/") || strings.HasPrefix(r.Path, "/l/")) {
			if !gotOne(r, task) {
				o.wrong = true
			}
		}
	}
	return o
}

// way is one way a user with no key gives a task.
type way struct {
	name string
	full bool // only in the full corpus (WAYMARK_EVALS=full), to keep make evals quick
	do   func(t *testing.T, p *pilot.Pilot, task Task) error
}

var ways = []way{
	{"steps", false, func(t *testing.T, p *pilot.Pilot, task Task) error {
		for _, s := range task.Steps {
			if _, err := p.Act(t.Context(), s, &pilot.ActOptions{AllowSubmit: true, NoHand: true}); err != nil {
				return fmt.Errorf("act %q: %w", s, err)
			}
		}
		return nil
	}},
	// The raw sentence given to act as one instruction.
	{"raw-act", false, func(t *testing.T, p *pilot.Pilot, task Task) error {
		_, err := p.Act(t.Context(), task.Raw, &pilot.ActOptions{AllowSubmit: true, NoHand: true})
		return err
	}},
	// The raw sentence given to run, the agent loop.
	{"raw-run", false, func(t *testing.T, p *pilot.Pilot, task Task) error {
		_, err := p.Run(t.Context(), task.Raw, pilot.RunOptions{AllowSubmit: true, MaxSteps: 12, NoHand: true})
		return err
	}},
}

// TestRules gives every task to the rules model three ways (its plain
// steps to act one by one, its raw sentence to act, its raw sentence to
// run) and counts the answers that reached the server. RULES_SEED and
// RULES_TASKS choose the corpus; WAYMARK_EVALS=full gives 150 tasks.
func TestRules(t *testing.T) {
	seed := uint64(evaltest.Int("RULES_SEED", 31))
	n := 45
	if evaltest.Full() {
		n = 150
	}
	tasks := Generate(seed, evaltest.Int("RULES_TASKS", n))
	res := map[string]map[string]outcome{} // way → task → outcome
	for _, w := range ways {
		res[w.name] = map[string]outcome{}
	}
	for _, task := range tasks {
		if f := os.Getenv("RULES_FAMILY"); f != "" && f != task.Family {
			continue
		}
		t.Run(task.Name, func(t *testing.T) {
			// One session for the task; each way opens the page afresh,
			// on a server of its own.
			// The servers are made first, so that the session, closed
			// first, leaves none of their connections open.
			srvs := make([]*adversarial.Server, len(ways))
			for i := range ways {
				srvs[i] = serve(t, task)
			}
			s, ctx := drivertest.Session(t, task.Name, 120*time.Second)
			for i, w := range ways {
				if w.full && os.Getenv("WAYMARK_EVALS") != "full" {
					continue
				}
				srv := srvs[i]
				if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
					t.Fatal(err)
				}
				p := pilot.New(s, rules.New(), nil)
				start := time.Now()
				err := w.do(t, p, task)
				took := time.Since(start)
				o := settle(srv, task, err == nil)
				if !o.ok && err != nil {
					o.why = err.Error()
				}
				if o.wrong {
					t.Errorf("%s: a wrong answer reached the server", w.name)
				}
				res[w.name][task.Name] = o
				t.Logf("%s: ok=%v in %s %s", w.name, o.ok, took.Round(10*time.Millisecond), o.why)
			}
		})
	}
	writeReport(t, seed, tasks, res)
}

// before is the same corpus (seed 31, 45 tasks) on the code before the
// fixes of issue 31 item 7 (main at b7705b0, where run with no key
// answered "needs a language model"), measured with this eval.
const before = `Before the fixes (main at b7705b0), the same 45 tasks:

| class | tasks | plain steps | raw sentence (act) | raw sentence (run) | wrong answers sent |
|---|---|---|---|---|---|
| kind | 9 | 6/9 (67 %) | 0/9 (0 %) | 0/9 (0 %) | 0 |
| list | 6 | 0/6 (0 %) | 0/6 (0 %) | 0/6 (0 %) | 0 |
| opened | 3 | 2/3 (67 %) | 0/3 (0 %) | 0/3 (0 %) | 0 |
| ordinal | 6 | 3/6 (50 %) | 3/6 (50 %) | 0/6 (0 %) | 0 |
| plain | 18 | 18/18 (100 %) | 9/18 (50 %) | 0/18 (0 %) | 0 |
| row | 3 | 0/3 (0 %) | 0/3 (0 %) | 0/3 (0 %) | 0 |
| all | 45 | 29/45 (64 %) | 12/45 (27 %) | 0/45 (0 %) | 0 |`

func writeReport(t *testing.T, seed uint64, tasks []Task, res map[string]map[string]outcome) {
	type counts struct{ n, steps, rawAct, rawRun, wrong int }
	by := map[string]*counts{}
	total := &counts{}
	var classes []string
	for _, task := range tasks {
		c := by[task.Class]
		if c == nil {
			c = &counts{}
			by[task.Class] = c
			classes = append(classes, task.Class)
		}
		for _, x := range []*counts{c, total} {
			x.n++
			if res["steps"][task.Name].ok {
				x.steps++
			}
			if res["raw-act"][task.Name].ok {
				x.rawAct++
			}
			if res["raw-run"][task.Name].ok {
				x.rawRun++
			}
			for _, w := range ways {
				if res[w.name][task.Name].wrong {
					x.wrong++
				}
			}
		}
	}
	slices.Sort(classes)
	pct := func(a, n int) string { return fmt.Sprintf("%d/%d (%.0f %%)", a, n, 100*float64(a)/float64(max(n, 1))) }
	var md strings.Builder
	fmt.Fprintf(&md, "The rules model (no model key) on %d MiniWoB-like tasks of our own (seed %d), each given as plain steps to `act` one by one, "+
		"and as the benchmark's raw sentence to `act` and to `run`; an answer counts when the loopback server received it.\n\n", total.n, seed)
	md.WriteString("| class | tasks | plain steps | raw sentence (act) | raw sentence (run) | wrong answers sent |\n|---|---|---|---|---|---|\n")
	figures := map[string]any{"seed": seed, "tasks": total.n}
	row := func(name string, c *counts) {
		fmt.Fprintf(&md, "| %s | %d | %s | %s | %s | %d |\n", name, c.n, pct(c.steps, c.n), pct(c.rawAct, c.n), pct(c.rawRun, c.n), c.wrong)
		figures[name] = map[string]int{"tasks": c.n, "steps": c.steps, "raw_act": c.rawAct, "raw_run": c.rawRun, "wrong": c.wrong}
	}
	for _, c := range classes {
		row(c, by[c])
	}
	row("all", total)
	if seed == 31 && total.n == 45 {
		md.WriteString("\n" + before + "\n")
	}
	var misses []string
	for _, task := range tasks {
		for _, w := range ways {
			if o := res[w.name][task.Name]; !o.ok {
				why := o.why
				if len(why) > 160 {
					why = why[:159] + "…"
				}
				misses = append(misses, fmt.Sprintf("- %s (%s): %s", task.Name, w.name, strings.ReplaceAll(why, "\n", " ")))
			}
		}
	}
	if len(misses) > 0 {
		md.WriteString("\nMisses:\n\n" + strings.Join(misses, "\n") + "\n")
	}
	t.Log("\n" + md.String())
	if os.Getenv("RULES_NO_REPORT") != "" {
		return
	}
	if err := report.Write(report.Dir, report.Section{Name: "rules", Figures: figures, Markdown: md.String()}); err != nil {
		t.Error(err)
	}
}
