package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/siteapi"
)

// Steps of kind api: the list read from the site's own JSON API by a
// recipe (package siteapi), with the browser steps it stands for as the
// fallback when the API has changed.

// HealAPI is a heal of an api step whose API had changed: the browser
// steps read the list, and the API was learned again from the capture of
// what they did.
const HealAPI = "api"

// CaptureFunc starts recording the session's network and returns what
// stops it and gives the capture (package capture).
type CaptureFunc func(ctx context.Context) (stop func(ctx context.Context) (*capture.File, error), err error)

// apiStep calls the step's API through the session's CallAPI (the one
// place a recipe runs: the session's backoff after a 429 holds across
// steps and rows, as it does for `waymark api call`); when the API has
// changed it runs the fallback steps, captured, and learns the API again
// from the rows they read.
func (x *run) apiStep(ctx context.Context, s *routine.Step, path string, rw *row, sr *StepResult) error {
	key := s.Into
	if key == "" {
		key = stepName(s, path)
	}
	pages := 0
	if s.List != nil {
		pages = s.List.Pages
	}
	recipe, err := json.Marshal(s.API)
	if err != nil {
		return err
	}
	req := calls.APICallRequest{Recipe: recipe, Vars: x.opts.Vars, Pages: pages, Fresh: true}
	if dl, ok := ctx.Deadline(); ok { // the caller's timeout, not the call's default
		req.TimeoutMS = max(int(time.Until(dl).Milliseconds()), 1)
	}
	res, signedIn, err := siteapi.Relogin(ctx, s.API, func(ctx context.Context) (*calls.APICallResult, error) {
		return x.d.CallAPI(ctx, req)
	}, x.opts.SignIn)
	if err == nil {
		data, err := json.Marshal(res.Rows)
		if err != nil {
			return err
		}
		x.res.Data[key] = data
		sr.Detail = fmt.Sprintf("%d row(s) from the site's API over %d page(s) in %d request(s); %d browser step(s) skipped", len(res.Rows), res.Pages, res.Requests, len(s.Fallback))
		if signedIn {
			sr.Detail = "signed in again by " + s.API.Relogin + "; " + sr.Detail
		}
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if kind := siteapi.KindOf(err); kind != siteapi.KindChanged || len(s.Fallback) == 0 {
		// The call's hint stays a hint (each front says it its way: a
		// missing variable's --var is MCP's vars), not words of the message.
		return &stop{cause: CauseFailed, msg: fmt.Sprintf("%s: %v", stepName(s, path), err), hint: calls.Hint(err),
			wire: kind == siteapi.KindNetwork || kind == siteapi.KindRate}
	}
	changed := err.Error()
	var stop func(context.Context) (*capture.File, error)
	capt := x.opts.Capture
	if capt == nil {
		capt = sessionCapture(x.d)
	}
	if stop, err = capt(ctx); err != nil {
		return stopf(CauseFailed, "%s: the API changed (%s), and the capture to learn it again did not start: %v", stepName(s, path), changed, err)
	}
	if err := x.steps(ctx, s.Fallback, path+".fallback", rw); err != nil {
		if stop != nil {
			_, _ = stop(context.WithoutCancel(ctx))
		}
		return err
	}
	rows, from := x.fallbackRows(s, path)
	if from == "" {
		return stopf(CauseFailed, "%s: the API changed (%s), and its browser steps read no list", stepName(s, path), changed)
	}
	x.res.Data[key] = x.res.Data[from]
	sr.Detail = fmt.Sprintf("the API changed (%s); %d row(s) read by the browser steps", changed, len(rows))
	f, err := stop(ctx)
	if err != nil {
		return stopf(CauseFailed, "%s: the API changed, and the capture of the browser steps failed: %v", stepName(s, path), err)
	}
	r, _, err := siteapi.LearnCall(ctx, x.d, f, rows, siteapi.LearnOptions{Page: s.API.Page, Vars: x.opts.Vars, Now: x.opts.Now})
	if err != nil {
		sr.Detail += "; not learned again: " + err.Error()
		return nil
	}
	x.heal(&Heal{Step: stepName(s, path), Path: path, How: HealAPI, Before: apiWhere(s.API), After: apiWhere(r), Reason: changed}, sr)
	s.API = r // the healed version calls the new one
	sr.Detail += "; the API was learned again"
	return nil
}

// fallbackRows are the rows the last extract of the fallback read, and
// the name they are under.
func (x *run) fallbackRows(s *routine.Step, path string) ([]map[string]any, string) {
	for i := len(s.Fallback) - 1; i >= 0; i-- {
		f := &s.Fallback[i]
		if f.Kind != routine.KindExtract {
			continue
		}
		name := f.Into
		if name == "" {
			name = stepName(f, fmt.Sprintf("%s.fallback[%d]", path, i))
		}
		raw, ok := x.res.Data[name]
		if !ok {
			return nil, ""
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return nil, ""
		}
		var rows []map[string]any
		var items []any
		if f.Recipe != nil {
			items = listRowsOf(f.Recipe, v)
		} else if a, ok := v.([]any); ok {
			items = a
		}
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				rows = append(rows, m)
			}
		}
		return rows, name
	}
	return nil, ""
}

// apiWhere names an API recipe's call and list, for a heal's before and
// after.
func apiWhere(r *siteapi.Recipe) string {
	where := r.Request.Method + " " + r.Request.URL + " " + r.Rows + " {"
	for i, f := range r.Fields {
		if i > 0 {
			where += ", "
		}
		where += f.Name + ": " + f.Path
	}
	return where + "}"
}
