package sessions

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// A document insert recorded by hand is one doc_insert step: the same
// editor and place, its text proposed as a variable the way a fill's
// value is (a secret one from doc insert --secret, or one that looks like
// a credential). A document read records nothing: it changes nothing.

// docInserter is the part of a session a recorded doc insert calls.
type docInserter interface {
	DocInsert(ctx context.Context, req calls.DocInsertRequest) (*calls.DocInserted, error)
}

// docInsert types the text and records the step.
func (rec *recording) docInsert(ctx context.Context, p page, req calls.DocInsertRequest) (*calls.DocInserted, error) {
	di, ok := p.(docInserter)
	if !ok {
		return nil, calls.Errorf(calls.ErrUnavailable, "", "this session cannot work document editors")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	res, err := di.DocInsert(ctx, req)
	if err != nil || rec.done {
		return res, err
	}
	fp := &calls.Fingerprint{Label: "text"}
	v := rec.variable(fp, req.Text, req.Secret)
	rec.steps = append(rec.steps, routine.Step{ID: rec.id("doc"), Kind: routine.KindDocInsert, Value: v,
		Doc: &routine.DocStep{Editor: req.Editor, After: req.After, Replace: req.Replace, End: req.End}})
	return res, nil
}
