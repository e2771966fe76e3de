// Package pilot is the half of waymark that thinks: it shows a model the
// page and gets a step back, then asks a [Driver] to do it. The model
// proposes; the driver's evidence decides what is pressed and recorded.
//
// A *driver.Session is a [Driver]; the model is any [Model] (model/anthropic,
// model/openai, or model/rules: no key, plain instructions only):
//
//	p := pilot.New(s, rules.New(), nil)
//	res, err := p.Act(ctx, "fill Email with ann@example.com", nil) // one step
//	run, err := p.Run(ctx, "sign in and open my orders", pilot.RunOptions{}) // several
//	out, err := p.Extract(ctx, "every product", schema) // data fitting a JSON Schema
//
// A step that would send, pay, delete or confirm fails with
// calls.ErrNeedsApproval unless [ActOptions] lets it (AllowSubmit, or the
// approval given back in Approve); an instruction the model cannot do
// wraps [ErrCannot] (the rules model's answer to anything but plain steps).
//
// The pilot never touches the DevTools protocol and the driver never calls
// a model: a test keeps this package free of chromedp and cdproto.
//
// API maturity: this package is new and not yet a stable API.
package pilot
