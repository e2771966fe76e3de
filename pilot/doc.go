// Package pilot is the half of waymark that thinks: it shows a model the
// page and gets a step back, then asks a [Driver] to do it. The model
// proposes; the driver's evidence decides what is pressed and recorded.
//
// The pilot never touches the DevTools protocol and the driver never calls
// a model: a test keeps this package free of chromedp and cdproto.
//
// API maturity: this package is new and not yet a stable API.
package pilot
