package calls

// Notice is one thing standing in the way, recognised (never solved), or a
// download to know of.
type Notice struct {
	Kind    string `json:"kind"`             // one of the Notice… kinds below
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

// Kinds of notice, in [Notice.Kind]. The driver recognises them
// (internal/notice); the pilot, the replay and the recorders act on them.
const (
	NoticeBotCheck     = "bot-check"     // a challenge a person may pass
	NoticeBlocked      = "blocked"       // a vendor's denial: no way through
	NoticeRefused      = "refused"       // HTTP 401, 403 or 429 from the site itself
	NoticeCookieBanner = "cookie-banner" // a cookie consent banner and its answers
	NoticeAppBanner    = "app-banner"    // "open in the app" and its dismiss control
	NoticeDialog       = "dialog"        // a dialog in the page, or a JavaScript dialog
	NoticeSignIn       = "sign-in"       // a sign-in form
	// NoticeDownload is not detected on a page: the driver adds it to a
	// look for a download nobody has been told of yet (one a page's timer
	// began, or one that ended after its action's outcome).
	NoticeDownload = "download"
	// NoticeFrameRefused is not detected on a page either: the driver adds
	// it for a subframe the URL policy or the private-network rule
	// refused, left empty while the page opened ("frame refused:
	// ads.example (policy)").
	NoticeFrameRefused = "frame-refused"
	// NoticeTabsRefused is added by the driver too: the session's pages
	// opened more tabs than it may hold (driver.MaxTabs), and those over
	// were closed before they loaded; Detail has "closed" and "limit".
	NoticeTabsRefused = "tabs-refused"
	// NoticeSendStopped is added by the driver too: a send the page began
	// after an action's step ended (a timer, a debounced handler) that
	// would commit, stopped before it left the browser. Pressing the same
	// control again asks for approval of that send.
	NoticeSendStopped = "send-stopped"
)

// Keys of [Notice.Detail] shared by several kinds.
const (
	// DetailEvidence says what the notice rests on, such as
	// "header cf-mitigated: challenge". Page text in it is quoted.
	DetailEvidence = "evidence"
	// DetailMayClear is "true" for a bot check that clears by itself when
	// the browser passes (an interstitial that runs a script and reloads):
	// the pilot waits once, briefly, before it stops.
	DetailMayClear = "may_clear"
)
