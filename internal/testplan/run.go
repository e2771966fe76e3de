package testplan

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// Agent carries out act and extract steps; *pilot.Pilot is one.
type Agent interface {
	Act(ctx context.Context, instruction string, opts *pilot.ActOptions) (*pilot.ActResult, error)
	Extract(ctx context.Context, instruction string, schema json.RawMessage) (*pilot.ExtractResult, error)
}

var _ Agent = (*pilot.Pilot)(nil)

// Options tune a run. Caller and OutDir are required; the zero value of
// every other field is valid.
type Options struct {
	// Caller reaches the daemon (the CLI's own); each scenario's calls
	// go through it for the scenario's session.
	Caller calls.Caller
	// OutDir is the evidence folder; it is created when missing.
	OutDir string
	// JUnitFile is where the JUnit XML goes; empty means OutDir/junit.xml.
	JUnitFile string
	// BaseURL replaces the plan's base_url when set.
	BaseURL string
	// Getenv reads ${NAME} references; nil means os.Getenv.
	Getenv func(string) string
	// NewAgent builds the agent for act and extract steps in a session,
	// with the run's secrets; nil makes such steps fail with a hint.
	NewAgent func(session string, secrets *secret.Set) (Agent, error)
	// Progress gets a line per step as it ends (masked); nil means none.
	Progress io.Writer
	// OnStep gets each step as it ends, its text masked, with its
	// scenario's name; nil means none. (waymark test --json streams them.)
	OnStep func(scenario string, step StepResult)
	// Now is the clock for the report's start time; nil means time.Now.
	Now func() time.Time
	// Poll is the pause between an expect step's checks; zero means 200 ms.
	Poll time.Duration
	// NetLog, when set, sums up what Chromium's NetLog saw during a step
	// that failed as unreachable or timed out (a navigation error, a
	// timeout): it gets the step's span and returns one line for the
	// step's result and the report (StepResult.NetLog) and the summary in
	// Markdown, kept as the step's evidence (StepResult.NetLogFile). The
	// step is not run again; the browser logs all along. Nil means no
	// such evidence.
	NetLog func(ctx context.Context, session string, since, until time.Time) (line, markdown string, err error)
}

// Run runs every scenario of p, each in its own session, writes the
// evidence and returns the report. The error is nil when the run went to
// the end, whether or not its scenarios passed (see [Report.Passed]); it
// is a [*PlanError] when a ${NAME} is not set (nothing then runs), and
// context.Canceled or a calls.ErrUnavailable-category error when the run
// stopped early — the evidence gathered so far is written in every case.
func Run(ctx context.Context, p *Plan, opts Options) (*Report, error) {
	if opts.Caller == nil || opts.OutDir == "" {
		return nil, errors.New("testplan.Run needs a Caller and an OutDir")
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Poll <= 0 {
		opts.Poll = 200 * time.Millisecond
	}
	base := p.BaseURL
	if opts.BaseURL != "" {
		base = opts.BaseURL
	}
	env, secrets, err := resolveEnv(p, opts.Getenv)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("create the evidence folder: %w", err)
	}
	r := &runner{plan: p, opts: opts, base: base, env: env, secrets: secrets, runID: runID()}
	rep := &Report{
		Format:  ReportFormat,
		Plan:    p.Name,
		File:    p.File,
		BaseURL: base,
		Started: opts.Now(),
	}
	start := time.Now()
	var stop error // set when the run cannot go on
	for i := range p.Scenarios {
		sc := &p.Scenarios[i]
		if stop != nil {
			rep.Scenarios = append(rep.Scenarios, r.skipped(sc, "not run: "+stopReason(stop)))
			continue
		}
		res, err := r.scenario(ctx, i, sc)
		rep.Scenarios = append(rep.Scenarios, *res)
		if err != nil {
			stop = err
		}
	}
	rep.DurationMS = time.Since(start).Milliseconds()
	rep.tally()
	if err := r.writeEvidence(rep); err != nil {
		return rep, err
	}
	return rep, stop
}

// resolveEnv reads every ${NAME} the plan uses and its declared secrets.
func resolveEnv(p *Plan, getenv func(string) string) (map[string]string, *secret.Set, error) {
	env := map[string]string{}
	set := new(secret.Set)
	for _, name := range p.Secrets {
		v := getenv(name)
		if v == "" {
			return nil, nil, &PlanError{File: p.File, Msg: fmt.Sprintf("secret %s is empty or not set; export it first (export %s=…)", name, name)}
		}
		if len(v) < secret.MinKnown {
			return nil, nil, &PlanError{File: p.File, Msg: fmt.Sprintf("secret %s is shorter than %d characters, too short to mask in the evidence", name, secret.MinKnown)}
		}
		env[name] = v
		set.Add(name, v)
	}
	for _, sc := range p.Scenarios {
		for j, st := range sc.Steps {
			for _, a := range st.Args {
				for _, m := range envRef.FindAllStringSubmatch(a, -1) {
					if _, ok := env[m[1]]; ok {
						continue
					}
					v := getenv(m[1])
					if v == "" {
						return nil, nil, &PlanError{File: p.File, Line: st.Line, Scenario: sc.Name, Step: j + 1,
							Msg: fmt.Sprintf("${%s} is empty or not set; export %s=… before the run", m[1], m[1])}
					}
					env[m[1]] = v
				}
			}
		}
	}
	return env, set, nil
}

func runID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// runner holds what one run of a plan shares between its scenarios.
type runner struct {
	plan    *Plan
	opts    Options
	base    string
	env     map[string]string
	secrets *secret.Set
	runID   string
}

func (r *runner) mask(s string) string { return r.secrets.Redact(s) }

// expand replaces ${NAME} references with their values.
func (r *runner) expand(s string) string {
	return envRef.ReplaceAllStringFunc(s, func(m string) string { return r.env[m[2:len(m)-1]] })
}

var nonSlug = lazyre.New(`[^a-z0-9]+`)

// slug makes a file- and session-safe name of at most n characters.
func slug(s string, n int) string {
	s = strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > n {
		s = strings.TrimRight(s[:n], "-")
	}
	if s == "" {
		s = "x"
	}
	return s
}

// sessionFor names the session of scenario i: the plan, the scenario and
// the run, within the daemon's 64 characters.
func (r *runner) sessionFor(i int, sc *Scenario) string {
	name := fmt.Sprintf("test-%s-%s-%02d-%s", r.runID, slug(r.plan.Name, 20), i+1, slug(sc.Name, 24))
	if len(name) > 64 {
		name = strings.TrimRight(name[:64], "-")
	}
	return name
}

// scenario runs one scenario in a fresh session and closes it. The error
// is non-nil only when the whole run must stop (canceled, no browser).
func (r *runner) scenario(ctx context.Context, i int, sc *Scenario) (*ScenarioResult, error) {
	sr := &scenarioRun{
		runner:  r,
		session: r.sessionFor(i, sc),
		dir:     fmt.Sprintf("%02d-%s", i+1, slug(sc.Name, 40)),
	}
	res := &ScenarioResult{Name: sc.Name, Session: sr.session, Status: StatusPassed, Line: sc.Line}
	start := time.Now()
	defer func() { res.DurationMS = time.Since(start).Milliseconds() }()
	// A leftover session of that name would carry cookies; start clean,
	// and close the session whatever happens.
	sr.closeSession(ctx)
	defer sr.closeSession(ctx)
	var stop error
	for j := range sc.Steps {
		st := &sc.Steps[j]
		if res.Status != StatusPassed || stop != nil {
			res.Steps = append(res.Steps, StepResult{Index: j + 1, Line: st.Line, Text: r.mask(st.Text), Status: StatusSkipped})
			continue
		}
		step := sr.step(ctx, j, st)
		res.Steps = append(res.Steps, step)
		r.progress(sc, &step)
		if step.Status == StatusFailed {
			res.Status = StatusFailed
			res.Failure = fmt.Sprintf("step %d (%s): %s", step.Index, step.Text, step.Error)
			if err := sr.lastErr; fatal(err) {
				stop = err
			}
		}
	}
	if stop == nil {
		// What the pages reported: console errors and failed requests.
		if p, err := sr.page().Problems(ctx, calls.ProblemsRequest{Clear: true}); err == nil {
			for _, c := range p.Console {
				res.Console = append(res.Console, r.mask(c))
			}
			for _, q := range p.Requests {
				res.FailedRequests = append(res.FailedRequests, r.mask(q))
			}
		}
	}
	return res, stop
}

// fatal reports whether err stops the whole run: no browser, or canceled.
func fatal(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, calls.ErrUnavailable) || errors.Is(err, calls.ErrBrowserGone)
}

func stopReason(err error) string {
	if errors.Is(err, context.Canceled) {
		return "the run was canceled"
	}
	return "the browser is unavailable: " + err.Error()
}

func (r *runner) skipped(sc *Scenario, why string) ScenarioResult {
	res := ScenarioResult{Name: sc.Name, Status: StatusSkipped, Line: sc.Line, Failure: r.mask(why)}
	for j, st := range sc.Steps {
		res.Steps = append(res.Steps, StepResult{Index: j + 1, Line: st.Line, Text: r.mask(st.Text), Status: StatusSkipped})
	}
	return res
}

func (r *runner) progress(sc *Scenario, st *StepResult) {
	if r.opts.OnStep != nil {
		m := *st
		m.Text, m.Detail, m.Error, m.Hint, m.Data, m.Outline = r.mask(m.Text), r.mask(m.Detail), r.mask(m.Error), r.mask(m.Hint), r.mask(m.Data), r.mask(m.Outline)
		m.NetLog = r.mask(m.NetLog)
		m.Warnings = nil
		for _, w := range st.Warnings {
			m.Warnings = append(m.Warnings, r.mask(w))
		}
		m.EvidenceErrors = nil
		for _, e := range st.EvidenceErrors {
			m.EvidenceErrors = append(m.EvidenceErrors, r.mask(e))
		}
		r.opts.OnStep(r.mask(sc.Name), m)
	}
	if r.opts.Progress == nil {
		return
	}
	mark := map[string]string{StatusPassed: "PASS", StatusFailed: "FAIL", StatusSkipped: "SKIP"}[st.Status]
	line := fmt.Sprintf("%s  %s › %s (%d ms)", mark, sc.Name, st.Text, st.DurationMS)
	if st.Error != "" {
		line += "\n      " + st.Error
	}
	for _, w := range st.Warnings {
		line += "\n      warning: " + w
	}
	if st.NetLog != "" {
		line += "\n      netlog: " + st.NetLog
	}
	fmt.Fprintln(r.opts.Progress, r.mask(line))
}

// scenarioRun is one scenario's session and evidence folder.
type scenarioRun struct {
	*runner
	session string
	dir     string // under OutDir, for this scenario's files
	agent   Agent
	lastErr error
}

// secretIn names the secret a step's value, as written (raw) and as
// expanded, brings into the page, or "". The step's request carries it
// (calls.ActRequest.Secret): the driver then masks the field in every
// outline and blacks it out of every screenshot of the session, since a
// picture of a plain text field shows its value, which no text masking
// reaches.
func (s *scenarioRun) secretIn(raw, value string) string {
	for _, m := range envRef.FindAllStringSubmatch(raw, -1) {
		if slices.Contains(s.plan.Secrets, m[1]) {
			return m[1]
		}
	}
	name, _ := s.secrets.Contains(value)
	return name
}

// page is the scenario's session on the daemon.
func (s *scenarioRun) page() calls.Remote {
	return calls.Remote{Caller: s.opts.Caller, Session: s.session}
}

func (s *scenarioRun) closeSession(ctx context.Context) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = rpc.Daemon{Caller: s.opts.Caller, Session: s.session}.CloseSession(cctx)
}

// step runs one step and, when it fails, captures the evidence.
func (s *scenarioRun) step(ctx context.Context, j int, st *Step) StepResult {
	res := StepResult{Index: j + 1, Line: st.Line, Text: s.mask(st.Text), Status: StatusPassed}
	target := s.targetOf(st)
	if target != "" {
		res.Target = s.mask(target)
		s.captureBefore(ctx, j, target, &res)
	}
	start := time.Now()
	var detail string
	var err error
	if t := checkedTarget(st, target); t != "" {
		err = s.checkTarget(ctx, st, t, &res) // split.go
	}
	if err == nil {
		detail, err = s.do(ctx, j, st, &res)
	}
	res.DurationMS = time.Since(start).Milliseconds()
	res.Detail = s.mask(detail)
	s.lastErr = err
	if err == nil {
		return res
	}
	res.Status = StatusFailed
	res.Error = s.mask(err.Error())
	res.Hint = s.mask(calls.Hint(err))
	res.Code = errCode(err)
	if !fatal(err) {
		s.captureFailure(ctx, j, target, &res)
		if s.opts.NetLog != nil && (errors.Is(err, calls.ErrTimeout) || errors.Is(err, calls.ErrNavigation)) {
			s.netLog(ctx, j, start, &res)
		}
	}
	return res
}

// netLog sets the NetLog's line and summary on a failed step that began
// at start.
func (s *scenarioRun) netLog(ctx context.Context, j int, start time.Time, res *StepResult) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	line, md, err := s.opts.NetLog(cctx, s.session, start, time.Now())
	switch {
	case err != nil:
		line = "no NetLog: " + err.Error()
	case line == "":
		line = "the NetLog shows no failed request in the step's time"
	}
	res.NetLog = s.mask(line)
	if md == "" {
		return
	}
	if rel, err := s.writeFile(fmt.Sprintf("%02d-netlog.md", j+1), []byte(s.mask(md))); err != nil {
		res.EvidenceErrors = append(res.EvidenceErrors, "netlog: "+err.Error())
	} else {
		res.NetLogFile = rel
	}
}

// targetOf is the element a step acts on, expanded, or "" for a step
// that acts on none (open, expect, act in words, …).
func (s *scenarioRun) targetOf(st *Step) string {
	switch st.Verb {
	case "click", "dblclick", "hover", "check", "uncheck", "fill", "type", "select":
		if len(st.Args) > 0 {
			return strings.TrimSpace(s.expand(st.Args[0]))
		}
	}
	return ""
}

// captureBefore saves a screenshot of the page just before a step acts,
// its target outlined: what the step was about to press or fill. A
// failure to take it is noted, not fatal.
func (s *scenarioRun) captureBefore(ctx context.Context, j int, target string, res *StepResult) {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	img, err := s.page().Screenshot(cctx, calls.ScreenshotRequest{Highlight: []string{target}})
	if err != nil {
		if ctx.Err() == nil {
			res.EvidenceErrors = append(res.EvidenceErrors, s.mask("screenshot before: "+err.Error()))
		}
		return
	}
	if rel, err := s.writeFile(fmt.Sprintf("%02d-before.png", j+1), img.Data); err != nil {
		res.EvidenceErrors = append(res.EvidenceErrors, "screenshot before: "+err.Error())
	} else {
		res.Before = rel
	}
}

func errCode(err error) string {
	var f *expectError
	if errors.As(err, &f) {
		return "expect_failed"
	}
	if errors.Is(err, pilot.ErrModelUnavailable) {
		return "model_unavailable"
	}
	return calls.Code(err)
}

// infraCode reports whether a step's error code says that what the test
// runs on failed (the browser, the daemon, the model server, the run
// itself), not the page under test: JUnit calls that an error, and a
// check or action that did not hold a failure.
func infraCode(code string) bool {
	switch code {
	case "unavailable", "browser_gone", "needs_model", "model_unavailable", "canceled", "internal":
		return true
	}
	return false
}

// captureFailure saves the screenshot and the outline at a failure, the
// step's target outlined in the screenshot.
func (s *scenarioRun) captureFailure(ctx context.Context, j int, target string, res *StepResult) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	stem := fmt.Sprintf("%02d-failure", j+1)
	var req calls.ScreenshotRequest
	if target != "" {
		req.Highlight = []string{target} // where the step meant to act, when it is there
	}
	if img, err := s.page().Screenshot(cctx, req); err != nil {
		res.EvidenceErrors = append(res.EvidenceErrors, s.mask("screenshot: "+err.Error()))
	} else if rel, err := s.writeFile(stem+".png", img.Data); err != nil {
		res.EvidenceErrors = append(res.EvidenceErrors, "screenshot: "+err.Error())
	} else {
		res.Screenshot = rel
	}
	snap, err := s.page().Snapshot(cctx, calls.SnapshotRequest{Full: true})
	if err != nil {
		res.EvidenceErrors = append(res.EvidenceErrors, s.mask("outline: "+err.Error()))
		return
	}
	text := fmt.Sprintf("# %s\n# %s\n\n%s\n", snap.Title, snap.URL, snap.Text)
	if rel, err := s.writeFile(stem+"-outline.txt", []byte(s.mask(text))); err != nil {
		res.EvidenceErrors = append(res.EvidenceErrors, "outline: "+err.Error())
	} else {
		res.Outline = rel
	}
}

// writeFile writes one evidence file of the scenario and returns its path
// relative to OutDir, with forward slashes (for links in report.md).
func (s *scenarioRun) writeFile(name string, data []byte) (string, error) {
	dir := filepath.Join(s.opts.OutDir, s.dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		return "", err
	}
	return s.dir + "/" + name, nil
}
