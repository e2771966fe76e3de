package replay

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// formStep fills a form from the step's answers with no model, and stops
// naming the fields that no longer exist (missing) or no longer accept
// their value (failed). Nothing is submitted: the driver stops the page's
// own attempts to send, and they are told in the step's detail.
func (x *run) formStep(ctx context.Context, s *routine.Step, path string, rw *row, sr *StepResult) error {
	// Only the driver knows which answers are files: each answer's folder
	// goes with it, the caller's for a variable's value, the routine's
	// for what it writes (fileDir).
	req := calls.FormFillRequest{Answers: map[string]string{}, Secrets: map[string]string{}, Hand: !x.opts.NoHand, Dir: x.opts.VarsDir}
	for k, v := range s.Answers {
		val, err := x.value(v, rw)
		if err != nil {
			return err
		}
		if d := x.fileDir(v); d != req.Dir {
			if req.Dirs == nil {
				req.Dirs = map[string]string{}
			}
			req.Dirs[k] = d
		}
		if v != nil && (v.From == "secret" || v.Slot != "" && x.vars[v.Slot].Secret) {
			req.Secrets[k] = val
		} else {
			req.Answers[k] = val
		}
	}
	res, err := x.d.FillForm(ctx, req)
	if err != nil {
		return err
	}
	var refused []string
	for _, f := range res.Fields {
		if f.Answered && !f.ReadBack {
			refused = append(refused, fmt.Sprintf("%s (%s)", f.Key, f.Error))
		}
	}
	sort.Strings(refused)
	filled := 0
	for _, f := range res.Fields {
		if f.Answered && f.ReadBack {
			filled++
		}
	}
	sr.Detail = fmt.Sprintf("%d field(s) filled", filled)
	if len(res.Stopped) > 0 {
		sr.Detail += fmt.Sprintf("; the page's own send stopped %d time(s)", len(res.Stopped))
	}
	switch {
	case len(res.Unmatched) > 0:
		return stopf(CauseMissing, "%s: no field for %s on the page any more", stepName(s, path), strings.Join(res.Unmatched, ", "))
	case len(refused) > 0:
		return stopf(CauseFailed, "%s: the page no longer accepts %s", stepName(s, path), strings.Join(refused, "; "))
	}
	return nil
}
