package notice

import (
	"net/http"
	"time"

	"github.com/waymark-dev/waymark/internal/outline"
)

// Kinds of notice, in [Notice.Kind].
const (
	KindBotCheck     = "bot-check"     // a challenge a person may pass
	KindBlocked      = "blocked"       // a vendor's denial: no way through
	KindRefused      = "refused"       // HTTP 401, 403 or 429 from the site itself
	KindCookieBanner = "cookie-banner" // a cookie consent banner and its answers
	KindAppBanner    = "app-banner"    // "open in the app" and its dismiss control
	KindDialog       = "dialog"        // a dialog in the page, or a JavaScript dialog
	KindSignIn       = "sign-in"       // a sign-in form
	// KindDownload is not detected on a page: the driver adds it to a look
	// for a download nobody has been told of yet (one a page's timer began,
	// or one that ended after its action's outcome).
	KindDownload = "download"
)

// Detail keys shared by several kinds.
const (
	// DetailEvidence says what the notice rests on, such as
	// "header cf-mitigated: challenge". Page text in it is quoted.
	DetailEvidence = "evidence"
	// DetailMayClear is "true" for a bot check that clears by itself when
	// the browser passes (an interstitial that runs a script and reloads):
	// the pilot waits once, briefly, before it stops.
	DetailMayClear = "may_clear"
)

// Notice is one thing standing in the way.
type Notice struct {
	Kind    string `json:"kind"`
	Vendor  string `json:"vendor,omitempty"` // bot-check and blocked: cloudflare, recaptcha, hcaptcha, datadome, perimeterx, arkose, aws-waf, kasada, imperva, akamai
	Message string `json:"message"`          // one line; page text only quoted
	// Detail holds what the caller acts on: refs of controls (cookie-banner:
	// "reject", "necessary-only", "accept", "settings"; app-banner:
	// "dismiss", "open"; dialog: "close"; sign-in: "username", "password",
	// "submit"), "status" and "retry_after" (seconds) for refusals,
	// DetailEvidence and DetailMayClear; for a download, "name", "state",
	// "bytes", and "path" or "reason".
	Detail map[string]string `json:"detail,omitempty"`
}

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
