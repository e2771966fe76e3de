package recipe

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
)

var (
	//go:embed common.js
	commonJS string
	//go:embed read.js
	readJS string
	//go:embed learn.js
	learnJS string
)

// Evaler runs one script in the page's isolated world (EvalRequest with
// MainWorld false): a driver session, or one reached through the daemon.
type Evaler interface {
	Eval(ctx context.Context, req calls.EvalRequest) (*calls.EvalResult, error)
}

// script wraps a body and its argument into one expression whose names
// stay inside one function call.
func script(body string, arg any) (string, error) {
	b, err := json.Marshal(arg)
	if err != nil {
		return "", err
	}
	return "(function(arg){\n" + commonJS + "\n" + body + "\n})(" + string(b) + ")", nil
}

// run evaluates a script and decodes its value into out.
func run(ctx context.Context, ev Evaler, body string, arg, out any) error {
	expr, err := script(body, arg)
	if err != nil {
		return err
	}
	res, err := ev.Eval(ctx, calls.EvalRequest{Expression: expr})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(res.Value, out); err != nil {
		return fmt.Errorf("the page's answer: %v", err)
	}
	return nil
}
