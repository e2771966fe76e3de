package pilot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

const password = "hunter2-Correct-Horse"

func decide(data string) scripted.Step { return scripted.Data(pilot.PurposeDecide, data) }

// events collects a run's events.
type events struct{ list []pilot.Event }

func (e *events) on(ev pilot.Event) { e.list = append(e.list, ev) }

func (e *events) count(t pilot.EventType, guard string) int {
	n := 0
	for _, ev := range e.list {
		if ev.Type == t && (guard == "" || ev.Guard == guard) {
			n++
		}
	}
	return n
}

func (e *events) json(t *testing.T) string {
	t.Helper()
	b, err := json.Marshal(e.list)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func runOpts(ev *events) pilot.RunOptions {
	return pilot.RunOptions{
		Inputs:     map[string]string{"email": "ann@example.com"},
		Secrets:    map[string]secret.Value{"password": secret.New("password", password)},
		OnEvent:    ev.on,
		Record:     true,
		VerifyWait: -1,
	}
}

// The login script: its click names the button in words that must not be
// recorded, with near-misses the loop mends.
var loginScript = []scripted.Step{
	decide(`{"thought":"open the sign-in page","action":{"type":"act","op":"goto","url":"https://shop.test/login","expect":{"url_changes_to":"*/login"}}}`),
	decide(`{"thought":"type the email","action":{"type":"act","op":"fill","ref":"e3","value":"%email%","expect":{"field_value":{"ref":"e3","value":"%email%"}}}}`),
	decide(`{"thought":"type the password","action":{"type":"fill","ref":"@e4","value":"%password%","expect":{"field_value":{"ref":"@e4","value":"%password%"}}}}`),
	decide(`{"thought":"press css=form > button.btn-primary:nth-child(3)","action":{"type":"click","ref":"[ref=e5]","expect":{"appears":{"role":"heading","name":"Welcome"}}}}`),
	decide(`{"thought":"signed in","action":{"type":"done","expect":{"text_appears":"Welcome, Ann"}}}`),
}

func TestRunRecordsWhatThePageSays(t *testing.T) {
	s := newSite()
	m := scripted.New(loginScript...)
	var ev events
	p := pilot.New(s, m, nil)
	res, err := p.Run(context.Background(), "Sign in to the shop", runOpts(&ev))
	if err != nil {
		t.Fatalf("run: %v\nevents: %s", err, ev.json(t))
	}
	m.Verify(t)
	if !res.Done || res.Turns != 5 || res.ModelCalls != 5 || res.Steps != 4 {
		t.Errorf("summary %+v", res)
	}
	rt := res.Routine
	if rt == nil || rt.Format != routine.Format || len(rt.Steps) != 5 {
		t.Fatalf("routine %+v", rt)
	}
	if st := rt.Steps[0]; st.Kind != routine.KindGoto || st.URL != loginURL || st.Landed == nil || st.Landed.Path != "/login" || st.Landed.Title != "Sign in" {
		t.Errorf("goto step %+v", st)
	}
	click := rt.Steps[3]
	if click.Op != "click" || click.Target == nil || click.Target.Locator != `role=button[name="Sign in"]` || len(click.Target.Candidates) != 2 || click.Target.Fingerprint.Name != "Sign in" {
		t.Errorf("click step %+v %+v", click, click.Target)
	}
	if click.Verdict == nil || !click.Verdict.OK {
		t.Errorf("click verdict %+v", click.Verdict)
	}
	if v := rt.Steps[1].Value; v == nil || v.From != "input" || v.Slot != "email" {
		t.Errorf("email value %+v", v)
	}
	if v := rt.Steps[2].Value; v == nil || v.From != "secret" || v.Slot != "password" {
		t.Errorf("password value %+v", v)
	}
	if st := rt.Steps[4]; st.Kind != routine.KindVerify || st.Check == nil || st.Check.Text != "Welcome, Ann" {
		t.Errorf("final check %+v", st)
	}
	b, _ := json.Marshal(rt)
	for _, words := range []string{"btn-primary", "e5", "@e4", password} {
		if strings.Contains(string(b), words) {
			t.Errorf("the routine holds %q: %s", words, b)
		}
	}
	if got := s.acts[1].Value; got != password {
		t.Errorf("the page got %q for the password", got)
	}
	if strings.Contains(ev.json(t), password) {
		t.Errorf("an event shows the password: %s", ev.json(t))
	}
	if ev.count(pilot.EventThought, "") != 5 || ev.count(pilot.EventStep, "") != 4 || ev.count(pilot.EventDone, "") != 1 || ev.count(pilot.EventRecovering, "") != 0 {
		t.Errorf("events: %s", ev.json(t))
	}
	// The model was shown slot names, never the secret, and the page fenced.
	for _, turn := range m.Calls() {
		tb, _ := json.Marshal(turn)
		if strings.Contains(string(tb), password) {
			t.Fatalf("the secret reached the model: %s", tb)
		}
	}
	last := m.Calls()[4].Messages[0].Text
	for _, want := range []string{"Declared inputs (type them as %name%): email", "Declared secrets", "password", "<page_content>", "— checked"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last prompt lacks %q:\n%s", want, last)
		}
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := p.SaveRoutine(path, rt); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	if strings.Contains(string(saved), password) || !strings.Contains(string(saved), `"format": "waymark.routine/1"`) {
		t.Errorf("saved: %s", saved)
	}
}

func TestRunFeedsAFailedCheckBack(t *testing.T) {
	s := newSite()
	s.cur = loginURL
	m := scripted.New(
		decide(`{"thought":"sign in","action":{"type":"act","op":"click","ref":"e5","expect":{"url_changes_to":"*/account"}}}`),
		scripted.Step{Purpose: pilot.PurposeDecide, Check: func(turn pilot.Turn) error {
			msg := turn.Messages[0].Text
			if !strings.Contains(msg, "did not have the effect you expected") || !strings.Contains(msg, "the URL is "+loginURL) {
				return errors.New("the failure and what was observed were not fed back:\n" + msg)
			}
			return nil
		}, Reply: pilot.Reply{Data: json.RawMessage(`{"thought":"fill the email first","action":{"type":"act","op":"fill","ref":"e3","value":"%email%"}}`)}},
		decide(`{"thought":"and the password","action":{"type":"act","op":"fill","ref":"e4","value":"%password%"}}`),
		decide(`{"thought":"sign in again","action":{"type":"act","op":"click","ref":"e5","expect":{"url_changes_to":"*/account"}}}`),
		decide(`{"thought":"done","action":{"type":"done"}}`),
	)
	var ev events
	res, err := pilot.New(s, m, nil).Run(context.Background(), "Sign in", runOpts(&ev))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	m.Verify(t)
	if ev.count(pilot.EventRecovering, pilot.GuardVerify) != 1 {
		t.Errorf("want one failed check: %s", ev.json(t))
	}
	steps := res.Routine.Steps
	if len(steps) != 5 || steps[0].Kind != routine.KindGoto || steps[0].URL != loginURL {
		t.Fatalf("want the start page as the first step: %+v", steps)
	}
	steps = steps[1:]
	if len(steps) != 4 || steps[0].Verdict.OK || !steps[3].Verdict.OK || !strings.Contains(steps[0].Verdict.Observed, "the URL is "+loginURL) {
		t.Errorf("steps %+v", steps)
	}
}

func TestRunDoneIsNotTakenOnTheModelsWord(t *testing.T) {
	s := newSite()
	s.cur = addURL
	m := scripted.New(
		decide(`{"thought":"all done","action":{"type":"done"}}`),
		decide(`{"thought":"it is done, see","action":{"type":"done","expect":{"text_appears":"order placed"}}}`),
		decide(`{"thought":"add one","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"added 1"}}}`),
		decide(`{"thought":"done now","action":{"type":"done"}}`),
	)
	var ev events
	o := runOpts(&ev)
	o.FailRate = 0.9
	res, err := pilot.New(s, m, nil).Run(context.Background(), "Add one", o)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	m.Verify(t)
	if !res.Done || ev.count(pilot.EventRecovering, pilot.GuardVerify) != 2 {
		t.Errorf("done was taken on the model's word: %s", ev.json(t))
	}
}

func TestRunGuards(t *testing.T) {
	click := decide(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"added"}}}`)
	tests := []struct {
		name    string
		script  []scripted.Step
		tune    func(*pilot.RunOptions)
		want    error
		guard   string
		guards  int // recovering events of the guard
		acts    int
		retryOK bool
	}{
		{
			name:   "repeats",
			script: []scripted.Step{click, click, click, click},
			want:   pilot.ErrRepeats, guard: pilot.GuardRepeat, guards: 3, acts: 1,
		},
		{
			name: "undecodable",
			script: []scripted.Step{
				scripted.Text(pilot.PurposeDecide, "I would click the Add button"),
				decide(`{"thought":"x","action":{"type":"act","op":"click","ref":"e77"}}`),
				decide(`{"thought":"x","action":{"type":"act","op":"fill","ref":"e2","value":"%nope%"}}`),
			},
			want: pilot.ErrUndecodable, guard: pilot.GuardUndecodable, guards: 3,
		},
		{
			name: "undecodable answers are forgiven when a good one comes",
			script: []scripted.Step{
				scripted.Text(pilot.PurposeDecide, "not json"),
				scripted.Fail(pilot.PurposeDecide, pilot.ErrMalformed),
				click,
				scripted.Text(pilot.PurposeDecide, "not json"),
				scripted.Text(pilot.PurposeDecide, "not json"),
				decide(`{"thought":"done","action":{"type":"done"}}`),
			},
			guard: pilot.GuardUndecodable, guards: 4, acts: 1,
		},
		{
			name:   "turns",
			script: []scripted.Step{click, click},
			tune:   func(o *pilot.RunOptions) { o.MaxSteps = 2 },
			want:   pilot.ErrBudget, guard: pilot.GuardBudget, guards: 1, acts: 1,
		},
		{
			name: "tokens",
			script: []scripted.Step{{Purpose: pilot.PurposeDecide, Reply: pilot.Reply{
				Data: json.RawMessage(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2"}}`), Usage: pilot.Usage{InputTokens: 900, OutputTokens: 200}}}},
			tune: func(o *pilot.RunOptions) { o.MaxTokens = 1000 },
			want: pilot.ErrBudget, guard: pilot.GuardBudget, guards: 1,
		},
		{
			name: "breaker",
			script: []scripted.Step{
				decide(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"sold out"}}}`),
				decide(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"sold out"}}}`),
				decide(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"sold out"}}}`),
				decide(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"sold out"}}}`),
				decide(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"sold out"}}}`),
			},
			want: pilot.ErrBreaker, guard: pilot.GuardBreaker, guards: 1, acts: 5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite()
			s.cur = addURL
			m := scripted.New(tt.script...)
			var ev events
			o := runOpts(&ev)
			if tt.tune != nil {
				tt.tune(&o)
			}
			res, err := pilot.New(s, m, nil).Run(context.Background(), "Add things", o)
			m.Verify(t)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v\n%s", err, tt.want, ev.json(t))
			}
			if errors.Is(err, context.Canceled) {
				t.Errorf("a guard's stop reads as canceled: %v", err)
			}
			if n := ev.count(pilot.EventRecovering, tt.guard); n != tt.guards {
				t.Errorf("%d recovering events of %s, want %d:\n%s", n, tt.guard, tt.guards, ev.json(t))
			}
			if got := s.actCount(); got != tt.acts {
				t.Errorf("%d acts on the page, want %d", got, tt.acts)
			}
			if res == nil || res.Reason == "" {
				t.Errorf("no summary: %+v", res)
			}
			last := ev.list[len(ev.list)-1]
			if tt.want != nil && (last.Type != pilot.EventError || last.Summary == nil) {
				t.Errorf("the last event is %+v", last)
			}
			if tt.want != nil {
				// The guard speaks before it stops anything.
				var rec int
				for i, e := range ev.list {
					if e.Type == pilot.EventRecovering && e.Guard == tt.guard {
						rec = i
					}
				}
				if rec != len(ev.list)-2 {
					t.Errorf("no recovering event right before the end: %s", ev.json(t))
				}
			}
		})
	}
}

func TestRunHandOverKeepsTheAnswerSecret(t *testing.T) {
	const answer = "s3cr3t-Answer-Value"
	s := newSite()
	s.cur = loginURL
	m := scripted.New(
		decide(`{"thought":"I need the password","action":{"type":"need_input","ref":"e4","field":"Password"}}`),
		decide(`{"thought":"now the email","action":{"type":"act","op":"fill","ref":"e3","value":"%email%","expect":{"field_value":{"ref":"e3","value":"%email%"}}}}`),
		decide(`{"thought":"sign in","action":{"type":"act","op":"click","ref":"e5","expect":{"url_changes_to":"*/account"}}}`),
		decide(`{"thought":"done","action":{"type":"done"}}`),
	)
	var ev events
	var asked []pilot.AskRequest
	o := runOpts(&ev)
	o.Secrets = nil
	o.Ask = func(_ context.Context, req pilot.AskRequest) (string, error) {
		asked = append(asked, req)
		return answer, nil
	}
	p := pilot.New(s, m, nil)
	res, err := p.Run(context.Background(), "Sign in", o)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	m.Verify(t)
	if len(asked) != 1 || !asked[0].Secret || asked[0].Slot != "password" || !strings.Contains(asked[0].Field, "Password") {
		t.Errorf("asked %+v", asked)
	}
	if s.values["e4"] != answer {
		t.Errorf("the answer was not typed: %q", s.values["e4"])
	}
	if ev.count(pilot.EventAwait, "") != 1 {
		t.Errorf("no await event: %s", ev.json(t))
	}
	if strings.Contains(ev.json(t), answer) {
		t.Errorf("an event shows the answer: %s", ev.json(t))
	}
	for _, turn := range m.Calls() {
		tb, _ := json.Marshal(turn)
		if strings.Contains(string(tb), answer) {
			t.Fatalf("the answer reached the model: %s", tb)
		}
	}
	rt := res.Routine
	fill := rt.Steps[1] // after the start page
	if fill.Op != "fill" || fill.Value == nil || fill.Value.From != "secret" || fill.Value.Slot != "password" || fill.Target.Locator != `role=textbox[name="Password"]` || !fill.Verdict.OK {
		t.Errorf("hand-over step %+v", fill)
	}
	if len(rt.Variables) != 2 || rt.Variables[1].Name != "password" || !rt.Variables[1].Secret {
		t.Errorf("variables %+v", rt.Variables)
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := p.SaveRoutine(path, rt); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	if strings.Contains(string(saved), answer) {
		t.Errorf("the saved routine holds the answer: %s", saved)
	}
}

// TestRunHandOverMasksAShortAnswer: an answer shorter than secret.MinKnown
// (a 3-digit code) is still never shown to the model: the pilot masks it
// by value where it stands alone, and the fill names the slot as a secret
// so that the driver masks the field by position.
func TestRunHandOverMasksAShortAnswer(t *testing.T) {
	const answer = "739"
	s := newSite()
	s.cur = loginURL
	m := scripted.New(
		decide(`{"thought":"I need the code","action":{"type":"need_login","ref":"e4","field":"pin"}}`),
		decide(`{"thought":"now the email","action":{"type":"act","op":"fill","ref":"e3","value":"%email%","expect":{"field_value":{"ref":"e3","value":"%email%"}}}}`),
		decide(`{"thought":"done","action":{"type":"done"}}`),
	)
	var ev events
	o := runOpts(&ev)
	o.Ask = func(context.Context, pilot.AskRequest) (string, error) { return answer, nil }
	if _, err := pilot.New(s, m, nil).Run(context.Background(), "Sign in", o); err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	m.Verify(t)
	if s.values["e4"] != answer {
		t.Fatalf("the answer was not typed: %q", s.values["e4"])
	}
	turns := m.Calls()
	if len(turns) < 2 {
		t.Fatalf("%d model calls", len(turns))
	}
	for i, turn := range turns {
		for _, msg := range turn.Messages {
			if strings.Contains(msg.Text, `value="`+answer+`"`) {
				t.Fatalf("turn %d shows the answer in the field:\n%s", i+1, msg.Text)
			}
		}
	}
	last := turns[len(turns)-1].Messages
	if !strings.Contains(last[len(last)-1].Text, `[ref=e4] value="«secret:pin»"`) {
		t.Errorf("the field is not shown masked:\n%s", last[len(last)-1].Text)
	}
	if i := slices.IndexFunc(s.acts, func(r calls.ActRequest) bool { return r.Target == "@e4" }); i < 0 || s.acts[i].Secret != "pin" {
		t.Errorf("the answer's fill does not name its slot as a secret: %+v", s.acts)
	}
	if strings.Contains(ev.json(t), `value=\"`+answer) {
		t.Errorf("an event shows the answer: %s", ev.json(t))
	}
}

// TestRunScreenshotMasksSecretFields: the fill of a secret names it in
// the request (calls.ActRequest.Secret), from which the driver blacks the
// field out of every screenshot; each turn is shown its screenshot (the
// model reads pictures).
func TestRunScreenshotMasksSecretFields(t *testing.T) {
	s := newSite()
	m := scripted.New(loginScript...)
	m.Pictures = true // a text-only model is sent none (vision.go)
	var ev events
	o := runOpts(&ev)
	o.Screenshots = true
	if _, err := pilot.New(s, m, nil).Run(context.Background(), "Sign in to the shop", o); err != nil {
		t.Fatalf("run: %v\nevents: %s", err, ev.json(t))
	}
	m.Verify(t)
	if i := slices.IndexFunc(s.acts, func(r calls.ActRequest) bool { return r.Target == "@e4" }); i < 0 || s.acts[i].Secret != "password" {
		t.Errorf("the password's fill does not name its secret: %+v", s.acts)
	}
	for i, turn := range m.Calls() {
		if msgs := turn.Messages; len(msgs) == 0 || len(msgs[len(msgs)-1].Images) != 1 {
			t.Errorf("turn %d was not shown the screenshot", i+1)
		}
	}
}

func TestRunHandOverWithNoOneToAsk(t *testing.T) {
	s := newSite()
	s.cur = loginURL
	m := scripted.New(decide(`{"thought":"sign-in needed","action":{"type":"need_login","ref":"e4","field":"password"}}`))
	var ev events
	o := runOpts(&ev)
	o.Secrets = nil
	_, err := pilot.New(s, m, nil).Run(context.Background(), "Sign in", o)
	if !errors.Is(err, pilot.ErrHandOver) {
		t.Fatalf("err = %v", err)
	}
}

func TestSaveRefusesALiteralSecret(t *testing.T) {
	const token = "ghp_R8x2Kq9LmZ4vT7nB3cW6yH1jF5dG0sPaQeUi"
	s := newSite()
	s.cur = loginURL
	m := scripted.New(
		decide(`{"thought":"type the key","action":{"type":"act","op":"fill","ref":"e3","value":"`+token+`"}}`),
		decide(`{"thought":"done","action":{"type":"done"}}`),
	)
	var ev events
	p := pilot.New(s, m, nil)
	res, err := p.Run(context.Background(), "Paste the key", runOpts(&ev))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ev.json(t), token) {
		t.Errorf("an event shows the token: %s", ev.json(t))
	}
	path := filepath.Join(t.TempDir(), "r.json")
	err = p.SaveRoutine(path, res.Routine)
	if !errors.Is(err, routine.ErrInvalid) || !strings.Contains(err.Error(), `id "s1"`) || !strings.Contains(err.Error(), "looks like a secret") {
		t.Fatalf("err = %v", err)
	}
	if _, serr := os.Stat(path); !os.IsNotExist(serr) {
		t.Errorf("a refused routine was written")
	}
}

func TestRunCanceled(t *testing.T) {
	tests := []struct {
		name  string
		setup func(s *site, hold chan struct{}) []scripted.Step
		wait  func(s *site)
	}{
		{
			name: "while the model thinks",
			setup: func(_ *site, hold chan struct{}) []scripted.Step {
				return []scripted.Step{{Purpose: pilot.PurposeDecide, Hold: hold}}
			},
			wait: func(*site) { time.Sleep(50 * time.Millisecond) },
		},
		{
			name: "while the page acts",
			setup: func(s *site, _ chan struct{}) []scripted.Step {
				s.block = true
				return []scripted.Step{click()}
			},
			wait: func(s *site) { <-s.started },
		},
		{
			name: "while a page that ignores cancellation acts",
			setup: func(s *site, _ chan struct{}) []scripted.Step {
				s.block, s.ignoreCtx = true, true
				return []scripted.Step{click()}
			},
			wait: func(s *site) { <-s.started },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite()
			s.cur = addURL
			t.Cleanup(func() { close(s.release) })
			hold := make(chan struct{})
			defer close(hold)
			m := scripted.New(tt.setup(s, hold)...)
			var ev events
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				res *pilot.RunResult
				err error
			}
			done := make(chan result, 1)
			go func() {
				res, err := pilot.New(s, m, nil).Run(ctx, "Add one", runOpts(&ev))
				done <- result{res, err}
			}()
			tt.wait(s)
			start := time.Now()
			cancel()
			// The run stops at once; one that waited for the page or the
			// model would never stop here (both hold until the cleanup),
			// so the bound is far above a loaded machine's delay (1 s
			// measured the machine, not the run).
			var r result
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the run did not stop within 10 s of the cancel")
			}
			t.Logf("stopped %s after the cancel", time.Since(start))
			if !errors.Is(r.err, context.Canceled) || !errors.Is(r.err, pilot.ErrCanceled) {
				t.Fatalf("err = %v", r.err)
			}
			if n := ev.count(pilot.EventCanceled, ""); n != 1 || ev.count(pilot.EventError, "") != 0 {
				t.Errorf("want one canceled event and no error: %s", ev.json(t))
			}
			if r.res == nil || r.res.Reason != "canceled" {
				t.Errorf("result %+v", r.res)
			}
		})
	}
}

func click() scripted.Step {
	return decide(`{"thought":"add","action":{"type":"act","op":"click","ref":"e2","expect":{"text_appears":"added"}}}`)
}

// TestRunRecordsHowItScrolls: a scroll is done and recorded the way the
// model said, or down (into view with an element) when it said none; a
// scroll back up is not a repeat of the scroll down.
func TestRunRecordsHowItScrolls(t *testing.T) {
	s := newSite()
	s.cur = addURL
	m := scripted.New(
		decide(`{"thought":"look further down","action":{"type":"act","op":"scroll","expect":{"text_appears":"scrolled down"}}}`),
		decide(`{"thought":"back up","action":{"type":"act","op":"scroll","direction":"UP","expect":{"text_appears":"scrolled up"}}}`),
		decide(`{"thought":"bring Add on screen","action":{"type":"act","op":"scroll","ref":"e2","expect":{"text_appears":"scrolled into-view"}}}`),
		decide(`{"thought":"seen","action":{"type":"done"}}`),
	)
	var ev events
	res, err := pilot.New(s, m, nil).Run(context.Background(), "Look around", runOpts(&ev))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	m.Verify(t)
	if ev.count(pilot.EventRecovering, "") != 0 {
		t.Errorf("the loop recovered: %s", ev.json(t))
	}
	var sent, recorded []string
	for _, a := range s.acts {
		sent = append(sent, a.Direction)
	}
	for _, st := range res.Routine.Steps[1:] { // after the start page
		recorded = append(recorded, st.Direction)
	}
	want := []string{"down", "up", "into-view"}
	if strings.Join(sent, " ") != strings.Join(want, " ") || strings.Join(recorded, " ") != strings.Join(want, " ") {
		t.Errorf("directions sent %q, recorded %q, want %q", sent, recorded, want)
	}
	if err := routine.Validate(res.Routine); err != nil {
		t.Errorf("the routine does not load: %v", err)
	}
}

// TestRunScrollsOnDownALongPage: scrolling down again is progress while the
// page shows more, not a repeat of the scroll before (which the guard
// would refuse to do again); and at the bottom, where a scroll changes
// nothing, its check fails and the model hears so.
func TestRunScrollsOnDownALongPage(t *testing.T) {
	s := newSite()
	s.cur = addURL
	down := func(n int) scripted.Step {
		return decide(fmt.Sprintf(`{"thought":"more below","action":{"type":"act","op":"scroll","direction":"down","expect":{"text_appears":"(%d down)"}}}`, n))
	}
	m := scripted.New(down(1), down(2), down(3), down(4),
		decide(`{"thought":"at the bottom","action":{"type":"done","expect":{"text_appears":"(3 down)"}}}`))
	var ev events
	res, err := pilot.New(s, m, nil).Run(context.Background(), "Read the whole page", runOpts(&ev))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	m.Verify(t)
	scrolls := 0
	for _, a := range s.acts {
		if a.Kind == calls.ActScroll {
			scrolls++
		}
	}
	if scrolls != 4 || ev.count(pilot.EventRecovering, pilot.GuardRepeat) != 0 {
		t.Errorf("%d scrolls done, %d refused as repeats; want 4 and 0\n%s", scrolls, ev.count(pilot.EventRecovering, pilot.GuardRepeat), ev.json(t))
	}
	if ev.count(pilot.EventRecovering, pilot.GuardVerify) != 1 {
		t.Errorf("the scroll at the bottom should fail its check once:\n%s", ev.json(t))
	}
	checked := 0
	for _, st := range res.Routine.Steps {
		if st.Op == calls.ActScroll && st.Verdict != nil && st.Verdict.OK {
			checked++
		}
	}
	if checked != 3 {
		t.Errorf("%d scrolls recorded as checked, want 3", checked)
	}
}
