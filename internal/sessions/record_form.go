package sessions

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// A form fill recorded by hand is one routine step of kind form (issue
// 17), its answers proposed as variables the way a fill's value is: a
// secret answer (form fill --secret), or one that looks like a
// credential or goes to a field named like a secret, is a secret
// variable. Answers no field took are left out and noted.

// formFiller is the part of a session a recorded form fill calls.
type formFiller interface {
	FillForm(ctx context.Context, req calls.FormFillRequest) (*calls.FormFillResult, error)
}

// formFill fills the form and records the step.
func (rec *recording) formFill(ctx context.Context, p page, req calls.FormFillRequest) (*calls.FormFillResult, error) {
	ff, ok := p.(formFiller)
	if !ok {
		return nil, calls.Errorf(calls.ErrUnavailable, "", "this session cannot fill forms")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	res, err := ff.FillForm(ctx, req)
	if err != nil || rec.done {
		return res, err
	}
	left := map[string]bool{}
	for _, k := range res.Unmatched {
		left[k] = true
	}
	answers := map[string]*routine.Value{}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range req.Answers {
			if !yield(k) {
				return
			}
		}
		for k := range req.Secrets {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		if left[k] {
			continue
		}
		fp := &calls.Fingerprint{Label: k}
		if v, isSecret := req.Secrets[k]; isSecret {
			answers[k] = rec.variable(fp, v, routine.VariableName(fp, true))
		} else {
			answers[k] = rec.variable(fp, req.Answers[k], "")
		}
	}
	if len(res.Unmatched) > 0 {
		rec.notes = append(rec.notes, fmt.Sprintf("after step %d: answers no field took are not in the routine: %s", len(rec.steps), strings.Join(res.Unmatched, ", ")))
	}
	if len(answers) == 0 {
		return res, nil
	}
	rec.steps = append(rec.steps, routine.Step{ID: rec.id("form"), Kind: routine.KindForm, Answers: answers})
	return res, nil
}
