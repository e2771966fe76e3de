package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// sheetStep runs a sheet_read, sheet_write or sheet_fill step with no
// model.
func (x *run) sheetStep(ctx context.Context, s *routine.Step, path string, rw *row, sr *StepResult) error {
	sd := x.d
	switch s.Kind {
	case routine.KindSheetRead:
		g, err := sd.SheetRead(ctx, calls.SheetReadRequest{Range: s.Range, Hand: !x.opts.NoHand})
		if err != nil {
			return err
		}
		data, err := json.Marshal(map[string]any{"range": g.Range, "rows": g.Grid.Values()})
		if err != nil {
			return err
		}
		key := s.Into
		if key == "" {
			key = stepName(s, path)
		}
		x.res.Data[key] = data
		sr.Detail = fmt.Sprintf("%s: %d row(s) into %s", g.Range, len(g.Grid.Rows), key)
		return nil
	case routine.KindSheetWrite:
		v, err := x.value(s.Value, rw)
		if err != nil {
			return err
		}
		req := calls.SheetWriteRequest{Cell: s.Cell, Value: v, Hand: !x.opts.NoHand}
		if s.Value.From == "secret" || s.Value.Slot != "" && x.vars[s.Value.Slot].Secret {
			req.Secret = s.Value.Slot
		}
		res, err := sd.SheetWrite(ctx, req)
		if err != nil {
			return err
		}
		sr.Detail = res.Cell + " written"
		return nil
	}
	req := calls.SheetFillRequest{Cells: map[string]string{}, Secrets: map[string]string{}, Hand: !x.opts.NoHand}
	for k, v := range s.Cells {
		val, err := x.value(v, rw)
		if err != nil {
			return err
		}
		if v.From == "secret" || v.Slot != "" && x.vars[v.Slot].Secret {
			req.Secrets[k] = val
		} else {
			req.Cells[k] = val
		}
	}
	_, err := sd.SheetFill(ctx, req)
	if err == nil {
		return errors.New("the driver wrote cells without an approval")
	}
	a, ok := calls.ApprovalOf(err)
	if !ok {
		return err
	}
	// Approved like a submit: allowed for this replay, or a person's yes.
	if x.opts.Submits != SubmitsAllow {
		yes := false
		if x.opts.Approve != nil {
			var aerr error
			if yes, aerr = x.opts.Approve(ctx, stepName(s, path), a); aerr != nil && ctx.Err() != nil {
				return ctx.Err()
			}
		}
		if !yes {
			return stopf(CauseNeedsApproval, "%s: %v", stepName(s, path), x.known.Redact(err.Error()))
		}
	}
	req.Approve = &a
	res, err := sd.SheetFill(ctx, req)
	if err != nil {
		if errors.Is(err, calls.ErrChanged) {
			return stopf(CauseFailed, "%s: %v", stepName(s, path), err)
		}
		return err
	}
	var refused []string
	for _, c := range res.Cells {
		if !c.ReadBack {
			refused = append(refused, c.Cell+" ("+c.Error+")")
		}
	}
	sr.Detail = fmt.Sprintf("%d cell(s) written", len(res.Cells)-len(refused))
	if len(refused) > 0 {
		return stopf(CauseFailed, "%s: the sheet did not take %v", stepName(s, path), refused)
	}
	return nil
}
