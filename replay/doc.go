package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// docStep runs a doc_insert or doc_read step with no model. An insert
// whose place the document no longer holds stops missing; one it holds
// twice stops ambiguous, nothing typed.
func (x *run) docStep(ctx context.Context, s *routine.Step, path string, rw *row, sr *StepResult) error {
	dw := x.d
	d := s.Doc
	if d == nil {
		d = &routine.DocStep{}
	}
	editor, err := x.expand(d.Editor, rw)
	if err != nil {
		return err
	}
	if s.Kind == routine.KindDocRead {
		doc, err := dw.DocRead(ctx, calls.DocReadRequest{Editor: editor})
		if err != nil {
			return docCause(err, s, path)
		}
		data, err := json.Marshal(map[string]any{"text": x.known.Redact(doc.Text), "lines": doc.Lines})
		if err != nil {
			return err
		}
		key := s.Into
		if key == "" {
			key = stepName(s, path)
		}
		x.res.Data[key] = data
		sr.Detail = fmt.Sprintf("%d line(s) into %s", doc.Lines, key)
		return nil
	}
	text, err := x.value(s.Value, rw)
	if err != nil {
		return err
	}
	after, err := x.expand(d.After, rw)
	if err != nil {
		return err
	}
	replace, err := x.expand(d.Replace, rw)
	if err != nil {
		return err
	}
	req := calls.DocInsertRequest{Editor: editor, Text: text, After: after, Replace: replace, End: d.End, Hand: !x.opts.NoHand}
	if s.Value.From == "secret" || s.Value.Slot != "" && x.vars[s.Value.Slot].Secret {
		req.Secret = s.Value.Slot
	}
	res, err := dw.DocInsert(ctx, req)
	if err != nil {
		return docCause(err, s, path)
	}
	sr.Detail = fmt.Sprintf("typed %s (line %d)", res.Where, res.Line)
	return nil
}

// docCause stops a replay with the cause a document call's refusal
// names; other failures pass as they are.
func docCause(err error, s *routine.Step, path string) error {
	switch {
	case errors.Is(err, calls.ErrNoMatch):
		return stopf(CauseMissing, "%s: %v", stepName(s, path), err)
	case errors.Is(err, calls.ErrAmbiguous):
		return stopf(CauseAmbiguous, "%s: %v", stepName(s, path), err)
	}
	return err
}
