package calls

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The calls a front (the CLI, the daemon, the MCP server) makes of a
// session (driver.Session). Each call has a method name, a request struct and a result
// struct; the daemon carries them as JSON unchanged, so every field has a JSON
// tag and a zero value that means "the default".

// Method names, as they travel over the daemon's socket.
const (
	MethodOpen       = "open"
	MethodBack       = "back"
	MethodForward    = "forward"
	MethodReload     = "reload"
	MethodSnapshot   = "snapshot"
	MethodAct        = "act"
	MethodGet        = "get"
	MethodWait       = "wait"
	MethodEval       = "eval"
	MethodScreenshot = "screenshot"
	MethodPDF        = "pdf"
	MethodTab        = "tab"
	MethodCookies    = "cookies"
	MethodStorage    = "storage"
	MethodStateSave  = "state_save"
	MethodStateLoad  = "state_load"
	MethodViewport   = "viewport"
	MethodDialog     = "dialog"
)

// OpenRequest asks for a navigation. A URL with no scheme gets https://.
type OpenRequest struct {
	URL string `json:"url"`
	// TimeoutMS bounds the wait for the load; zero means 30 s.
	TimeoutMS int `json:"timeout_ms,omitempty"`
}

// PageInfo says where the current tab is.
type PageInfo struct {
	URL    string `json:"url"`
	Title  string `json:"title"`
	Status int    `json:"status,omitempty"` // HTTP status of the document, when known
}

// SnapshotRequest chooses what a look shows.
type SnapshotRequest struct {
	Interactive bool   `json:"interactive,omitempty"` // -i: only elements with refs (and the structure that holds them)
	Compact     bool   `json:"compact,omitempty"`     // -c: no empty structural lines
	Scope       string `json:"scope,omitempty"`       // a ref or a CSS selector: only that subtree
	Depth       int    `json:"depth,omitempty"`       // zero means no limit
	Full        bool   `json:"full,omitempty"`        // the whole page, not viewport first
	Tree        bool   `json:"tree,omitempty"`        // also return the tree (for --json)
	URLs        bool   `json:"urls,omitempty"`        // --urls: links show where they go (url="…")
	// Changes returns, when the tab shows the same page as the caller's
	// last look with the same options, only the lines that changed since
	// ("+ line", "- line") if that is shorter than the whole outline.
	Changes bool `json:"changes,omitempty"`
	// Unseen marks a look the caller takes for its own checks (a replay's
	// sign-in check, a recorder's), shown to no person or model: it
	// leaves the session's untold downloads for a look that is seen, and
	// a later look's changes are counted from the last look seen.
	Unseen bool `json:"unseen,omitempty"`
	// Reader names who reads the look when several read one session (an
	// MCP client beside a shell): Changes counts from this reader's last
	// look, so no reader is told "no changes" of what only another saw.
	// Empty: the session's one reader.
	Reader string `json:"reader,omitempty"`
	// View asks for [Snapshot.View]: a measure of what the visible part
	// of the page shows (one script in the driver's isolated world), for
	// a pilot deciding whether a picture should go with the outline.
	View bool `json:"view,omitempty"`
}

// View measures the visible part of a page: how much of it is drawn
// (pixels the outline cannot put in words) and how many of its controls
// the outline can name. The pilot's vision rule reads it (pilot.Thin).
type View struct {
	Width  float64 `json:"width"` // the viewport, in CSS pixels
	Height float64 `json:"height"`
	// Graphics is the share of the view, from 0 to 1, covered by drawn
	// content of the top document: canvas, svg, video, embed and object
	// elements of at least 2 % of the view each, and pictures (img) of at
	// least 20 % (a chart or a map drawn as an image; not thumbnails or
	// icons, which the outline names by their alt text).
	Graphics float64 `json:"graphics"`
	Controls int     `json:"controls"` // elements with a ref on screen
	Named    int     `json:"named"`    // of those, the ones with a name of their own
	Words    int     `json:"words"`    // words of text on screen
}

// Snapshot is the page as an outline.
type Snapshot struct {
	URL   string          `json:"url"`
	Title string          `json:"title"`
	Text  string          `json:"text"`           // the outline, one element a line
	Tree  json.RawMessage `json:"tree,omitempty"` // the outline as a tree, when asked for
	Refs  int             `json:"refs"`           // how many refs the outline holds
	// Changed is set when Text holds the changes since the last look
	// rather than the whole outline.
	Changed bool `json:"changed,omitempty"`
	// Notices are what stands in the way on the page: bot checks, refusals,
	// cookie and app banners, dialogs, sign-in forms; and the session's
	// downloads no outcome, look or list has told of yet. They are also
	// the first lines of Text.
	Notices []Notice `json:"notices,omitempty"`
	// App names the application the page is, when it is a known one
	// ("Google Sheets (sheet, unverified)"); the first line of Text says
	// it too.
	App string `json:"app,omitempty"`
	// View is the measure of the visible part, when asked for
	// (SnapshotRequest.View); nil otherwise, or when it could not be
	// taken (a dialog open).
	View *View `json:"view,omitempty"`
}

// Action kinds for [ActRequest].
const (
	ActClick    = "click"
	ActDblClick = "dblclick"
	ActHover    = "hover"
	ActFocus    = "focus"
	ActFill     = "fill"
	ActType     = "type"
	ActPress    = "press"
	ActSelect   = "select"
	ActCheck    = "check"
	ActUncheck  = "uncheck"
	ActScroll   = "scroll"
	ActUpload   = "upload"
	ActDrag     = "drag"
	// ActClickAt presses at a point of the view (At): the control under
	// it, if there is one, gets the ordinary click (its checks and the
	// submit gate); anything else (a canvas, a map, a picture) gets the
	// press exactly there.
	ActClickAt = "click-at"
)

// Point is a position in the view, or an offset, in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// ParsePoint reads a point or an offset written "X,Y" ("420,310",
// "120.5, -40"), as the CLI and the MCP tools take it.
func ParsePoint(s string) (Point, error) {
	xs, ys, ok := strings.Cut(s, ",")
	x, errx := strconv.ParseFloat(strings.TrimSpace(xs), 64)
	y, erry := strconv.ParseFloat(strings.TrimSpace(ys), 64)
	if !ok || errx != nil || erry != nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return Point{}, fmt.Errorf("%q is not a point: want two numbers of CSS pixels, X,Y, such as 420,310 (or 120,-40 for an offset)", s)
	}
	return Point{X: x, Y: y}, nil
}

// ActRequest is one element action. Target is a ref ("e12" or "@e12") or a
// locator ("role=button[name=\"Pay\"]", "text=Continue", "label=Email",
// "placeholder=Search", "testid=submit", "css=#go"). Press and scroll may
// leave Target empty: press then goes to the focused element and scroll to
// the page.
type ActRequest struct {
	Kind   string   `json:"kind"`
	Target string   `json:"target,omitempty"`
	Value  string   `json:"value,omitempty"`  // fill, type
	Values []string `json:"values,omitempty"` // select (labels or values)
	Key    string   `json:"key,omitempty"`    // press: "Enter", "Control+A"
	Button string   `json:"button,omitempty"` // click: left (default), right, middle
	Count  int      `json:"count,omitempty"`  // click: number of clicks; zero means 1
	// Scroll: "up", "down", "left", "right" or "into-view"; Pixels zero
	// means 600 px.
	Direction string `json:"direction,omitempty"`
	Pixels    int    `json:"pixels,omitempty"`
	// Files are upload's files: whole paths, or paths relative to Dir.
	Files []string `json:"files,omitempty"`
	// Dir is the folder a relative path of Files is read from: the
	// caller's working folder, or the routine's folder of a replayed
	// step; a whole path. Empty: a driver in the caller's own process
	// reads it from that process's folder, and the daemon, whose folder
	// is no caller's, refuses it (driver.Options.RemoteCallers).
	Dir string `json:"dir,omitempty"`
	To  string `json:"to,omitempty"` // drag: the drop target, a ref or locator
	// At is click-at's point, from the view's top left corner.
	At *Point `json:"at,omitempty"`
	// By is a drag's offset from the source's centre, instead of To.
	By *Point `json:"by,omitempty"`
	// TimeoutMS bounds the wait for the element to be actionable; zero means 5 s.
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// Reader names who acts, as [SnapshotRequest.Reader] names who reads:
	// that reader's next look with Changes leaves out a field that holds
	// just what it filled (its fill's reply said so). Empty: the
	// session's one reader.
	Reader string `json:"reader,omitempty"`
	// Submits is "ask" or "allow": with ask, an action that would send a
	// form, pay, delete or confirm is not done and fails with
	// ErrNeedsApproval carrying an Approval. Empty means allow (a person
	// chose the exact element on the command line).
	Submits string `json:"submits,omitempty"`
	// Approve carries an earlier Approval: the action proceeds only if the
	// page still matches it.
	Approve *Approval `json:"approve,omitempty"`
	// Hand moves the pointer along a person's path and types at a
	// person's pace (on by default for the pilot and replays, --hand=false
	// turns it off; off for plain CLI actions unless asked with --hand):
	// pages with hover menus and debounced fields then behave as they do
	// for people.
	Hand bool `json:"hand,omitempty"`
	// Secret names the secret Value is (fill, type): from then on the
	// field shows «secret:NAME» in every outline of the session, whatever
	// it holds and however short, for the fronts that never see the value
	// (a later `waymark snapshot` in another process).
	Secret string `json:"secret,omitempty"`
}

// Outcome is what an action did.
type Outcome struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Navigated bool   `json:"navigated,omitempty"`
	// From is the URL of the page the action was on, when it navigated:
	// a front may show where it went relative to it.
	From    string    `json:"from,omitempty"`
	NewTabs []TabInfo `json:"new_tabs,omitempty"`
	Dialog  *Dialog   `json:"dialog,omitempty"` // a JavaScript dialog that opened and waits for an answer
	// Closed says what was closed without asking before the action: a
	// cookie banner by its least-tracking answer, an app banner by its
	// own "not now".
	Closed string `json:"closed,omitempty"`
	// Downloads are the downloads that began during the action, each
	// finished (or stopped) before the outcome returns. One that begins
	// later, or is still running, is told at the next look (a Notice of
	// kind download) and listed by MethodDownloads.
	Downloads []Download `json:"downloads,omitempty"`
	// Chatter are the sends the gate let go during a step that asks
	// before a submit, because they commit nothing: a beacon, an
	// analytics POST, a GraphQL query ("POST /collect (a beacon: …)").
	Chatter []string `json:"chatter,omitempty"`
	// NotSent is set when the action tried to send a form (a submit
	// button clicked, Enter pressed in a field) and the browser's own
	// constraint validation stopped it: a required field empty, an e-mail
	// that is not one, a pattern unmet, a page's setCustomValidity. The
	// action itself happened (ok stays true); the form did not go, and
	// the fields say what to fix before trying again.
	NotSent *NotSent `json:"not_sent,omitempty"`
	// Pressed says what a click-at pressed: the control under the point,
	// as the outline shows it with its ref ("button \"Save\" [ref=e5]"),
	// or the surface pressed at the point itself ("canvas at (420, 310)").
	Pressed string `json:"pressed,omitempty"`
}

// NotSent says why a form an action tried to send was not sent.
type NotSent struct {
	// Invalid are the fields the browser found invalid, in the form's
	// order, each with the browser's own message (what the page shows
	// the person beside the field).
	Invalid []InvalidField `json:"invalid"`
}

// InvalidField is a form field that failed the browser's validation:
// its role and name as the outline shows them, and the browser's
// message ("Please fill out this field.").
type InvalidField struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Message string `json:"message"`
}

// Note is the words a front shows after the action's own ("clicked"):
// "the form was not sent: 1 field is invalid: textbox "Email" — Please
// fill out this field."
func (n *NotSent) Note() string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("the form was not sent: ")
	if len(n.Invalid) == 1 {
		b.WriteString("1 field is invalid: ")
	} else {
		fmt.Fprintf(&b, "%d fields are invalid: ", len(n.Invalid))
	}
	for i, f := range n.Invalid {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %q — %s", f.Role, f.Name, f.Message)
	}
	return b.String()
}

// ChatterNote is the line a front shows for the chatter a step let go
// (Outcome.Chatter, FormFillResult.Chatter), or "" for none: the person
// sees what left the browser without being asked.
func ChatterNote(sends []string) string {
	if len(sends) == 0 {
		return ""
	}
	const most = 3
	note := "let go, as they commit nothing: " + strings.Join(sends[:min(len(sends), most)], "; ")
	if len(sends) > most {
		note += fmt.Sprintf("; and %d more", len(sends)-most)
	}
	return note
}

// Download is a file a page downloaded. State is completed, canceled
// (over the size or time limit, or by the page), refused (its name's
// extension is not allowed) or in-progress (still running when the action
// stopped waiting, or when listed). Path is set for a completed one.
type Download struct {
	Name   string `json:"name"` // the file's name in the downloads folder
	Path   string `json:"path,omitempty"`
	Bytes  int64  `json:"bytes"`
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"` // why it was canceled or refused
}

// Summary says in one line what became of the download, for a front's
// text: where it landed, how far it got, or why it was stopped.
func (d Download) Summary() string {
	switch d.State {
	case DownloadCompleted:
		return fmt.Sprintf("downloaded %s (%d bytes) to %s", d.Name, d.Bytes, d.Path)
	case DownloadInProgress:
		return fmt.Sprintf("download of %s still running (%d bytes so far)", d.Name, d.Bytes)
	}
	return fmt.Sprintf("download of %s %s: %s", d.Name, d.State, d.Reason)
}

// Download states.
const (
	DownloadCompleted  = "completed"
	DownloadCanceled   = "canceled"
	DownloadRefused    = "refused"
	DownloadInProgress = "in-progress"
)

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload).
type Dialog struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	DefaultPrompt string `json:"default_prompt,omitempty"`
}

// Named is the dialog as a sentence names it, with its article: "an
// alert dialog", "a confirm dialog", "a beforeunload dialog". Every
// message that tells of a dialog words it here.
func (d *Dialog) Named() string {
	article := "a"
	if t := d.Type; t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		article = "an"
	}
	return article + " " + d.Type + " dialog"
}

// GetRequest reads one thing from the page. What is one of title, url,
// text, value, attr, html, count. Target is a ref or locator (for count, a
// locator).
type GetRequest struct {
	What   string `json:"what"`
	Target string `json:"target,omitempty"`
	Name   string `json:"name,omitempty"` // attr: the attribute's name
}

// GetResult holds what was read: Value for strings, Count for count.
type GetResult struct {
	Value string `json:"value"`
	Count int    `json:"count,omitempty"`
	Found bool   `json:"found"` // attr: whether the attribute exists
	// Note is said beside the value when the value may mislead: the text
	// of an input or textarea is not what is typed in it (get value is);
	// neither read says whether a checkbox or radio is checked.
	Note string `json:"note,omitempty"`
}

// WaitRequest waits for one condition. With none set, it waits MS milliseconds.
type WaitRequest struct {
	Text      string `json:"text,omitempty"`     // text appears
	Gone      string `json:"gone,omitempty"`     // text disappears
	Selector  string `json:"selector,omitempty"` // CSS selector matches a visible element
	URL       string `json:"url,omitempty"`      // URL matches a glob ([MatchURL])
	Load      bool   `json:"load,omitempty"`     // the document has loaded
	MS        int    `json:"ms,omitempty"`
	TimeoutMS int    `json:"timeout_ms,omitempty"` // zero means 30 s
}

// EvalRequest runs a JavaScript expression. It runs in an isolated world
// unless MainWorld is set.
type EvalRequest struct {
	Expression string `json:"expression"`
	MainWorld  bool   `json:"main_world,omitempty"`
}

// EvalResult is the JSON value of the expression.
type EvalResult struct {
	Value json.RawMessage `json:"value"`
}

// ScreenshotRequest takes a PNG of the viewport, the full page or an element.
type ScreenshotRequest struct {
	Full   bool   `json:"full,omitempty"`
	Target string `json:"target,omitempty"` // a ref or locator
	// Mask names elements (refs or locators) to black out in the image,
	// such as fields a secret was typed into: a picture cannot be masked
	// as text is. Each element's box, padded a little, is painted opaque
	// black on the image; nothing is added to the page. Every element a
	// locator matches is masked; a target no longer on the page (or not
	// rendered) is skipped, as nothing of it shows. Any other failure to
	// find a target fails the screenshot rather than return it unmasked.
	Mask []string `json:"mask,omitempty"`
	// Highlight names elements (refs or locators) to outline in red on
	// the image: the element a step acts on, in test evidence. It is drawn
	// on the image, like Mask; a target that is not on the page, or not
	// found, is left out rather than fail the screenshot.
	Highlight []string `json:"highlight,omitempty"`
}

// Image holds the bytes of a capture (PNG or PDF); the front writes the file.
type Image struct {
	Data []byte `json:"data"`
}

// TabRequest manages tabs. Op is list, new, switch or close. Index counts
// from 0 in the order of [TabInfo]; close with Index -1 closes the current tab.
type TabRequest struct {
	Op    string `json:"op"`
	URL   string `json:"url,omitempty"`
	Index int    `json:"index,omitempty"`
}

// TabInfo describes one tab of the session.
type TabInfo struct {
	Index   int    `json:"index"`
	URL     string `json:"url"`
	Title   string `json:"title"`
	Current bool   `json:"current"`
}

// TabList is the tabs after a tab call.
type TabList struct {
	Tabs []TabInfo `json:"tabs"`
}

// CookieRequest reads, sets or clears cookies of the session. Op is get, set
// or clear. Set takes Cookies; a cookie with no URL and no Domain is set for
// the current page.
type CookieRequest struct {
	Op      string   `json:"op"`
	Cookies []Cookie `json:"cookies,omitempty"`
}

// Cookie is a browser cookie.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	URL      string  `json:"url,omitempty"`
	Domain   string  `json:"domain,omitempty"`
	Path     string  `json:"path,omitempty"`
	Expires  float64 `json:"expires,omitempty"` // seconds since the epoch; zero is a session cookie
	HTTPOnly bool    `json:"http_only,omitempty"`
	Secure   bool    `json:"secure,omitempty"`
	SameSite string  `json:"same_site,omitempty"`
}

// CookieList is the cookies after a cookie call.
type CookieList struct {
	Cookies []Cookie `json:"cookies"`
}

// StorageRequest reads or writes the current origin's local or session
// storage. Area is local or session; Op is get, set or clear. Get with an
// empty Key returns every item.
type StorageRequest struct {
	Area  string `json:"area"`
	Op    string `json:"op"`
	Key   string `json:"key,omitempty"`
	Value string `json:"value,omitempty"`
}

// StorageItems is the storage after a storage call.
type StorageItems struct {
	Items map[string]string `json:"items"`
}

// State is what `state save` writes and `state load` reads: the session's
// cookies and the local storage of the origins it has open.
type State struct {
	Format  string                       `json:"format"` // "waymark.state/1"
	Cookies []Cookie                     `json:"cookies"`
	Origins map[string]map[string]string `json:"origins,omitempty"` // origin → local storage
}

// StateFormat is the version string of [State].
const StateFormat = "waymark.state/1"

// ViewportRequest sets the size of the page's viewport in CSS pixels.
type ViewportRequest struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// DialogRequest answers the open JavaScript dialog.
type DialogRequest struct {
	Accept bool   `json:"accept"`
	Text   string `json:"text,omitempty"` // prompt: the answer
	// Secret names Text as a secret (a PIN a prompt asks for): the
	// session knows it before it is typed, and masks it in every output.
	Secret string `json:"secret,omitempty"`
	// Submits and Approve are as an action's ([ActRequest]): accepting a
	// confirm is pressing what it asks, and with Submits "ask" a send
	// the accept starts needs approval.
	Submits string    `json:"submits,omitempty"`
	Approve *Approval `json:"approve,omitempty"`
}

// Empty is the result of a call that returns nothing.
type Empty struct{}

// MethodProblems reads the console errors and failed requests of the
// session's pages.
const MethodProblems = "problems"

// ProblemsRequest asks for the problems the pages reported; Clear forgets
// them after reading (so a test can take them scenario by scenario).
type ProblemsRequest struct {
	Clear bool `json:"clear,omitempty"`
}

// Problems are what the pages reported: console errors and uncaught
// exceptions, and requests that failed or answered 400 and above.
type Problems struct {
	Console  []string `json:"console"`
	Requests []string `json:"requests"`
}

// MethodConsole reads the console messages of the session's pages.
const MethodConsole = "console"

// ConsoleRequest asks for the console messages a session's pages logged,
// oldest first. The driver keeps the last few hundred a tab, from the
// moment the tab opens until the session closes; nothing is added to the
// page to read them.
type ConsoleRequest struct {
	// Errors keeps only errors: console.error and failed console.assert,
	// uncaught exceptions, and the browser's own errors (a blocked
	// resource, a CSP violation).
	Errors bool `json:"errors,omitempty"`
	// Since keeps only the messages after the one numbered Since (a
	// ConsoleLog's Next); zero keeps every one kept.
	Since int64 `json:"since,omitempty"`
	// Last keeps only the last Last messages; zero keeps every one.
	Last int `json:"last,omitempty"`
	// Clear forgets the messages after reading them.
	Clear bool `json:"clear,omitempty"`
}

// ConsoleMessage is one message of a page's console, its text masked:
// known secrets as «secret:NAME», what looks like one as «secret».
type ConsoleMessage struct {
	Seq int64 `json:"seq"` // numbers messages and requests of a session in order
	// Level is error, warning, info, log or debug.
	Level string `json:"level"`
	// Source is console (the page called console.*), exception (an
	// uncaught exception) or what the browser reported about (network,
	// security, violation, …).
	Source string `json:"source"`
	Text   string `json:"text"`
	URL    string `json:"url,omitempty"`  // the script or request it is about
	Line   int    `json:"line,omitempty"` // 1-based, in URL
	UnixMS int64  `json:"unix_ms"`        // when it was logged, in Unix milliseconds (a moment; every other *_ms is a duration)
}

// ConsoleLog is the console of a session's pages.
type ConsoleLog struct {
	Messages []ConsoleMessage `json:"messages"`
	Errors   int              `json:"errors"`  // how many of Messages are errors
	Dropped  int              `json:"dropped"` // older messages the bound let go
	Next     int64            `json:"next"`    // pass as Since to read only what comes after
}

// MethodNetwork reads the requests of the session's pages.
const MethodNetwork = "network"

// NetworkRequest asks for the requests a session's pages made, oldest
// first, kept like console messages (see [ConsoleRequest]).
type NetworkRequest struct {
	// Failed keeps only requests that failed or answered 400 and above.
	Failed bool `json:"failed,omitempty"`
	// Type keeps only requests of one resource type (document, xhr,
	// fetch, script, stylesheet, image, font, …).
	Type  string `json:"type,omitempty"`
	Since int64  `json:"since,omitempty"`
	Last  int    `json:"last,omitempty"`
	Clear bool   `json:"clear,omitempty"`
}

// Request is one request of a page, its URL masked like console text.
// A redirect is a request of its own, with the redirect's status.
type Request struct {
	Seq    int64  `json:"seq"`
	Method string `json:"method"`
	URL    string `json:"url"`
	Type   string `json:"type"`             // the resource type, lower case
	Status int    `json:"status,omitempty"` // the HTTP status; 0 before an answer or when none came
	// Failed is why no answer came (net::ERR_…, "canceled", "blocked:
	// REASON"); empty when one came or none yet.
	Failed     string `json:"failed,omitempty"`
	Pending    bool   `json:"pending,omitempty"`     // still loading when read
	SentUnixMS int64  `json:"sent_unix_ms"`          // when it was sent, in Unix milliseconds (a moment; every other *_ms is a duration)
	DurationMS int64  `json:"duration_ms,omitempty"` // from sent to loaded or failed
}

// Bad reports whether r failed or answered 400 and above.
func (r Request) Bad() bool { return r.Failed != "" || r.Status >= 400 }

// NetworkLog is the requests of a session's pages.
type NetworkLog struct {
	Requests []Request `json:"requests"`
	Failed   int       `json:"failed"`  // how many of Requests are Bad
	Dropped  int       `json:"dropped"` // older requests the bound let go
	Next     int64     `json:"next"`
}

// MethodDownloads lists the session's downloads. It takes no request.
const MethodDownloads = "downloads"

// DownloadList is every download of a session, in the order they began:
// the ones actions reported, and the ones a page began by itself. Listing
// them counts as telling of them: a later look carries no notice of the
// ended ones.
type DownloadList struct {
	Downloads []Download `json:"downloads"`
}
