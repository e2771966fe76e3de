package testplan

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/internal/verify"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// expectError is an expect step whose check did not hold in time.
type expectError struct{ msg string }

func (e *expectError) Error() string { return e.msg }

// do runs one step and returns a short note of what it did.
func (s *scenarioRun) do(ctx context.Context, j int, st *Step, res *StepResult) (string, error) {
	args := make([]string, len(st.Args))
	for i, a := range st.Args {
		args[i] = s.expand(a)
	}
	ms := int(st.Timeout / time.Millisecond)
	act := func(req calls.ActRequest) (string, error) {
		req.Target = strings.TrimSpace(req.Target)
		req.TimeoutMS = ms
		out, err := s.page().Act(ctx, req)
		if err != nil {
			return "", err
		}
		return outcomeNote(*out), nil
	}
	switch st.Verb {
	case "open":
		u := s.resolve(args[0])
		info, err := s.page().Open(ctx, calls.OpenRequest{URL: u, TimeoutMS: ms})
		if err != nil {
			return "", err
		}
		note := fmt.Sprintf("at %s %q", info.URL, info.Title)
		if info.Status >= 400 {
			note += fmt.Sprintf(" (HTTP %d)", info.Status)
		}
		return note, nil
	case "click", "dblclick", "hover", "check", "uncheck":
		return act(calls.ActRequest{Kind: st.Verb, Target: args[0]})
	case "fill", "type":
		return act(calls.ActRequest{Kind: st.Verb, Target: args[0], Value: args[1], Secret: s.secretIn(st.Args[1], args[1])})
	case "select":
		return act(calls.ActRequest{Kind: calls.ActSelect, Target: args[0], Values: []string{args[1]}})
	case "press":
		return act(calls.ActRequest{Kind: calls.ActPress, Key: args[0]})
	case "wait":
		req := calls.WaitRequest{TimeoutMS: ms}
		switch st.Kind {
		case "text":
			req.Text = args[0]
		case "gone":
			req.Gone = args[0]
		case "url":
			req.URL = args[0]
		case "selector":
			req.Selector = args[0]
		default:
			req.MS, _ = strconv.Atoi(args[0])
		}
		info, err := s.page().Wait(ctx, req)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("at %s", info.URL), nil
	case "expect":
		return s.expect(ctx, st, args)
	case "screenshot":
		img, err := s.page().Screenshot(ctx, calls.ScreenshotRequest{Full: st.Full})
		if err != nil {
			return "", err
		}
		rel, err := s.writeFile(fmt.Sprintf("%02d-%s.png", j+1, slug(args[0], 40)), img.Data)
		if err != nil {
			return "", fmt.Errorf("save the screenshot: %w", err)
		}
		res.Screenshot = rel
		return rel, nil
	case "act":
		return s.act(ctx, st, args[0])
	case "extract":
		return s.extract(ctx, j, args, res)
	}
	return "", fmt.Errorf("step %q is not implemented", st.Verb)
}

func outcomeNote(o calls.Outcome) string {
	if o.Navigated {
		return fmt.Sprintf("now at %s %q", o.URL, o.Title)
	}
	if o.Dialog != nil {
		return fmt.Sprintf("%s opened: %q", o.Dialog.Named(), o.Dialog.Message)
	}
	if o.NotSent != nil {
		return "done; " + o.NotSent.Note()
	}
	return "done"
}

// resolve joins a relative address to the base URL.
func (s *scenarioRun) resolve(raw string) string {
	if s.base == "" || hasScheme(raw) {
		return raw
	}
	b, err := url.Parse(s.base)
	if err != nil {
		return raw
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if !strings.HasSuffix(b.Path, "/") && !strings.HasPrefix(raw, "/") {
		b.Path += "/"
	}
	return b.ResolveReference(ref).String()
}

var scheme = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// hasScheme reports whether raw is absolute (http://…, about:blank, //host).
func hasScheme(raw string) bool {
	return scheme.MatchString(raw) || strings.HasPrefix(raw, "//")
}

// urlHolds reports whether the page's URL matches a plan's glob, read by
// [calls.MatchURL]; a glob that starts with / is a path (with or without
// its query) on the base URL's origin, as open's relative addresses are,
// or on any origin when the plan has no base URL.
func (s *scenarioRun) urlHolds(glob, raw string) bool {
	if !calls.MatchURL(glob, raw) {
		return false
	}
	if !strings.HasPrefix(glob, "/") {
		return true
	}
	b, err := url.Parse(s.base)
	if err != nil || b.Scheme == "" || b.Host == "" {
		return true
	}
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == b.Scheme && u.Host == b.Host
}

// expect checks a condition until it holds or the step's time is up.
func (s *scenarioRun) expect(ctx context.Context, st *Step, args []string) (string, error) {
	timeout := st.Timeout
	if timeout == 0 {
		timeout = s.plan.ExpectTimeout
	}
	if timeout == 0 {
		timeout = DefaultExpectTimeout
	}
	var saw string
	var held bool
	err := verify.Poll{Wait: timeout, Every: s.opts.Poll}.Until(ctx, func(ctx context.Context) (bool, error) {
		ok, seen, err := s.checkOnce(ctx, st.Kind, args)
		if err != nil && (fatal(err) || errors.Is(err, calls.ErrBadInput)) {
			return false, err
		}
		saw, held = seen, ok
		return ok, nil // another failure may pass: look again
	})
	switch {
	case err != nil:
		return "", err
	case !held:
		return "", &expectError{msg: fmt.Sprintf("%s (checked for %s)", saw, timeout)}
	}
	return saw, nil
}

// checkOnce checks an expectation once. saw says what the page showed:
// on success a short note, on failure why it does not hold.
func (s *scenarioRun) checkOnce(ctx context.Context, kind string, args []string) (ok bool, saw string, err error) {
	get := func(what, target string) (calls.GetResult, error) {
		r, err := s.page().Get(ctx, calls.GetRequest{What: what, Target: target})
		if err != nil {
			return calls.GetResult{}, err
		}
		return *r, nil
	}
	switch kind {
	case "text":
		r, err := get("text", "css=body")
		if err != nil {
			return false, "cannot read the page's text: " + err.Error(), err
		}
		// The session shows a value typed as a secret as its mark.
		if verify.Shows(r.Value, args[0]) || verify.Shows(r.Value, s.secrets.Mask(args[0])) {
			return true, "shown", nil
		}
		return false, fmt.Sprintf("the page does not show %q", args[0]), nil
	case "title":
		r, err := get("title", "")
		if err != nil {
			return false, "cannot read the title: " + err.Error(), err
		}
		if strings.Contains(r.Value, args[0]) {
			return true, fmt.Sprintf("%q", r.Value), nil
		}
		return false, fmt.Sprintf("the title is %q, which does not contain %q", r.Value, args[0]), nil
	case "url":
		r, err := get("url", "")
		if err != nil {
			return false, "cannot read the URL: " + err.Error(), err
		}
		if s.urlHolds(args[0], r.Value) {
			return true, r.Value, nil
		}
		return false, fmt.Sprintf("the URL is %s, which does not match %s", r.Value, args[0]), nil
	case "value":
		r, err := get("value", args[0])
		if err != nil {
			return false, fmt.Sprintf("cannot read the value of %s: %v", args[0], err), err
		}
		// A field holding a value typed as a secret reads as its mark.
		if r.Value == args[1] || r.Value == s.secrets.Mask(args[1]) {
			return true, fmt.Sprintf("%q", r.Value), nil
		}
		return false, fmt.Sprintf("%s holds %q, not %q", args[0], r.Value, args[1]), nil
	case "visible":
		if _, err := s.page().Locate(ctx, calls.LocateRequest{Target: args[0]}); err != nil {
			return false, fmt.Sprintf("%s is not visible: %v", args[0], err), err
		}
		return true, "visible", nil
	case "count":
		want, _ := strconv.Atoi(strings.TrimSpace(args[1]))
		r, err := get("count", args[0])
		if err != nil {
			return false, fmt.Sprintf("cannot count %s: %v", args[0], err), err
		}
		if r.Count == want {
			return true, strconv.Itoa(r.Count), nil
		}
		return false, fmt.Sprintf("%s matches %d element(s), not %d", args[0], r.Count, want), nil
	}
	return false, "", fmt.Errorf("expect %q is not implemented", kind)
}

// agentFor builds the session's agent on first use.
func (s *scenarioRun) agentFor() (Agent, error) {
	if s.agent != nil {
		return s.agent, nil
	}
	if s.opts.NewAgent == nil {
		return nil, calls.Errorf(calls.ErrBadInput, "run it with "+calls.Cmd("test")+", which configures a model (--model, or WAYMARK_MODEL and a key)",
			"act and extract steps need a model, and none is configured")
	}
	a, err := s.opts.NewAgent(s.session, s.secrets)
	if err != nil {
		return nil, err
	}
	s.agent = a
	return a, nil
}

// act runs an act step. Its ${NAME} references reach the pilot as %NAME%
// placeholders, so a secret value is typed into the page but never shown
// to the model.
func (s *scenarioRun) act(ctx context.Context, st *Step, _ string) (string, error) {
	a, err := s.agentFor()
	if err != nil {
		return "", err
	}
	vars := pilot.Vars{Values: map[string]string{}, Secrets: map[string]secret.Value{}}
	secretNames := map[string]bool{}
	for _, n := range s.plan.Secrets {
		secretNames[n] = true
	}
	instruction := envRef.ReplaceAllStringFunc(st.Args[0], func(m string) string {
		name := m[2 : len(m)-1]
		if secretNames[name] {
			vars.Secrets[name] = secret.New(name, s.env[name])
		} else {
			vars.Values[name] = s.env[name]
		}
		return "%" + name + "%"
	})
	if st.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, st.Timeout)
		defer cancel()
	}
	// The pilot names the secret in its request, and the driver masks
	// the field from then on.
	res, err := a.Act(ctx, instruction, &pilot.ActOptions{Vars: vars, AllowSubmit: st.AllowSubmit})
	if err != nil {
		return "", err
	}
	note := res.Answer.Action
	if res.Line != "" {
		note += " " + res.Line
	}
	if res.Evidence != nil && res.Evidence.Chosen != "" {
		note += " (" + res.Evidence.Chosen + ")"
	}
	if res.Outcome != nil && res.Outcome.Navigated {
		note += fmt.Sprintf(" → %s", res.Outcome.URL)
	}
	return note, nil
}

// extract runs an extract step and saves the data it read.
func (s *scenarioRun) extract(ctx context.Context, j int, args []string, res *StepResult) (string, error) {
	path := args[1]
	if !filepath.IsAbs(path) && s.plan.File != "" {
		path = filepath.Join(filepath.Dir(s.plan.File), path)
	}
	schema, err := os.ReadFile(path)
	if err != nil {
		return "", calls.Errorf(calls.ErrBadInput, "the schema's path is relative to the plan file", "read the schema: %v", err)
	}
	a, err := s.agentFor()
	if err != nil {
		return "", err
	}
	out, err := a.Extract(ctx, args[0], schema)
	if err != nil {
		return "", err
	}
	rel, werr := s.writeFile(fmt.Sprintf("%02d-extract.json", j+1), []byte(s.mask(string(out.Data))+"\n"))
	if werr == nil {
		res.Data = rel
	}
	if !out.OK {
		return "", &expectError{msg: "the data does not fit the schema: " + strings.Join(out.Problems, "; ")}
	}
	return clip(string(out.Data), 200), nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
