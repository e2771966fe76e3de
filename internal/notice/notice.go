package notice

import (
	"net/http"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// Notice is one thing standing in the way. Its kinds
// (calls.NoticeBotCheck, …) and shared detail keys (calls.DetailEvidence,
// calls.DetailMayClear) live with it in package calls, where the pilot can
// read them.
type Notice = calls.Notice

// Input is what the driver holds about the current document.
type Input struct {
	// Status is the HTTP status of the document response; 0 means unknown.
	Status int
	// Headers are the document response's headers, with canonical keys.
	Headers http.Header
	// URL is the document's URL.
	URL string
	// Title is the document's title; "" means the outline root's name.
	Title string
	// Outline is the page outline; nil means only headers and status are
	// judged.
	Outline *outline.Node
	// Text is the page's text, optional: it is searched for the phrases of
	// vendors' interstitial pages along with the outline's text.
	Text string
	// JSDialog is an open JavaScript dialog (Page.javascriptDialogOpening),
	// or nil.
	JSDialog *JSDialog
	// Now is when the response arrived, to turn a Retry-After date into
	// seconds; zero means the response's Date header is used.
	Now time.Time
}

// JSDialog is a JavaScript alert, confirm, prompt or beforeunload dialog.
type JSDialog struct {
	Type    string // "alert", "confirm", "prompt" or "beforeunload"
	Message string
}

// Detect returns the notices for in, the strongest first: bot checks and
// blocks, then refusals, then banners, dialogs and sign-in forms. A page
// with nothing in the way gives nil.
func Detect(in Input) []Notice {
	pg := newPage(in)
	var out []Notice
	bots := detectBot(pg)
	out = append(out, bots...)
	if len(bots) == 0 {
		if n, ok := detectRefused(in); ok {
			out = append(out, n)
		}
	}
	if d := in.JSDialog; d != nil {
		out = append(out, jsDialog(d))
	}
	claimed := map[*outline.Node]bool{}
	out = append(out, detectCookieBanner(pg, claimed)...)
	out = append(out, detectAppBanner(pg, claimed)...)
	out = append(out, detectDialogs(pg, claimed)...)
	if n, ok := detectSignIn(pg); ok {
		out = append(out, n)
	}
	return out
}
