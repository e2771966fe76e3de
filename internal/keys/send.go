package keys

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
)

// Dispatch sends events in order on s with [input.DispatchKeyEvent]. It
// stops at the first error. Errors never carry the events' text, which may
// be a secret.
func Dispatch(ctx context.Context, s cdp.Session, events []input.DispatchKeyEventParams) error {
	for _, ev := range events {
		if _, err := cdp.Call(ctx, s, input.DispatchKeyEvent, ev); err != nil {
			return fmt.Errorf("%s %s: %w", ev.Type, ev.Code, err)
		}
	}
	return nil
}

// Send sends steps in order on s: a [StepKey] with [Dispatch], a
// [StepInsert] with [input.InsertText].
func Send(ctx context.Context, s cdp.Session, steps []Step) error {
	for _, st := range steps {
		var err error
		switch st.Kind {
		case StepKey:
			err = Dispatch(ctx, s, st.Events)
		case StepInsert:
			_, err = cdp.Call(ctx, s, input.InsertText, input.InsertTextParams{Text: st.Text})
			if err != nil {
				err = fmt.Errorf("insert text: %w", err)
			}
		default:
			err = fmt.Errorf("step of unknown kind %d", st.Kind)
		}
		if err != nil {
			return fmt.Errorf("send keys: %w", err)
		}
	}
	return nil
}
