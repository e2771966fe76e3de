package mind2web

import (
	"context"
	"fmt"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
)

// Session is what a run needs of a browser session: the pilot's driver,
// and screenshots for the judge. A *driver.Session is one.
type Session interface {
	pilot.Driver
	Screenshot(ctx context.Context, req calls.ScreenshotRequest) (*calls.Image, error)
}

// Options tune [Run].
type Options struct {
	Agent pilot.Model // the agent loop's model
	Judge Judge
	// MaxSteps bounds each task's turns; zero means three times the
	// task's reference length plus five, at most pilot.DefaultMaxSteps.
	MaxSteps int
	// TaskTimeout bounds each task (run and judge); zero means 10 minutes.
	TaskTimeout time.Duration
	// AllowSubmit lets the agent send forms. Off by default: a
	// benchmark run on the live web must not buy or post; such a step
	// ends the task with needs-approval, which is judged as it stands.
	AllowSubmit bool
}

// Result is one task's run and verdict.
type Result struct {
	Task        Task          `json:"task"`
	Done        bool          `json:"done"`   // the agent said it was done
	Reason      string        `json:"reason"` // why the run ended
	Steps       int           `json:"steps"`
	AgentCalls  int           `json:"agent_model_calls"`
	Verdict     Verdict       `json:"verdict"`
	JudgeError  string        `json:"judge_error,omitempty"`
	Duration    time.Duration `json:"duration_ns"`
	Screenshots int           `json:"screenshots"`
}

// Summary counts a set of results.
type Summary struct {
	Tasks      int     `json:"tasks"`
	Done       int     `json:"done"`
	Success    int     `json:"success"`
	SuccessPct float64 `json:"success_pct"`
	AgentCalls int     `json:"agent_model_calls"`
	JudgeCalls int     `json:"judge_model_calls"`
}

// Summarize counts results.
func Summarize(rs []Result) Summary {
	var s Summary
	for _, r := range rs {
		s.Tasks++
		if r.Done {
			s.Done++
		}
		if r.Verdict.Success {
			s.Success++
		}
		s.AgentCalls += r.AgentCalls
		s.JudgeCalls += r.Verdict.Calls
	}
	if s.Tasks > 0 {
		s.SuccessPct = float64(int(float64(s.Success)*1000/float64(s.Tasks)+0.5)) / 10
	}
	return s
}

// Run carries out one task in s and judges it. The error is for the
// runner's own failures (the website did not open); a task the agent
// failed is a Result with Verdict.Success false.
func Run(ctx context.Context, s Session, t Task, o Options) (Result, error) {
	res := Result{Task: t}
	timeout := o.TaskTimeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	defer func() { res.Duration = time.Since(start) }()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: t.Website}); err != nil {
		return res, fmt.Errorf("task %s: open %s: %w", t.ID, t.Website, err)
	}
	var tr Trace
	steps := o.MaxSteps
	if steps <= 0 {
		steps = min(pilot.DefaultMaxSteps, 3*max(t.ReferenceLength, 1)+5)
	}
	p := pilot.New(s, o.Agent, nil)
	run, runErr := p.Run(ctx, t.Task, pilot.RunOptions{
		MaxSteps:    steps,
		AllowSubmit: o.AllowSubmit,
		NoHand:      true,
		OnEvent: func(e pilot.Event) {
			switch e.Type {
			case pilot.EventStep:
				tr.Actions = append(tr.Actions, fmt.Sprintf("%d. %s", len(tr.Actions)+1, e.Text))
				// The events come on the run's own goroutine between
				// steps: the page is settled and the session idle.
				if img, err := s.Screenshot(ctx, calls.ScreenshotRequest{}); err == nil {
					tr.Screenshots = append(tr.Screenshots, img.Data)
				}
			case pilot.EventThought:
				tr.Answer = e.Text
			}
		},
	})
	if run != nil {
		res.Done, res.Reason, res.Steps, res.AgentCalls = run.Done, run.Reason, run.Steps, run.ModelCalls
	}
	if runErr != nil && res.Reason == "" {
		res.Reason = runErr.Error()
	}
	res.Screenshots = len(tr.Screenshots)
	v, err := o.Judge.Verdict(ctx, t.Task, tr)
	res.Verdict = v
	if err != nil {
		res.JudgeError = err.Error()
	}
	return res, nil
}
