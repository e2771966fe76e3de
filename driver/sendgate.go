package driver

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// The submit gate holds at the point of sending (issue 12). The check
// before acting (submit.go) reads the control, and a page can always find
// a trigger it does not read: a select whose onchange submits, a "Next"
// button calling requestSubmit, Enter in an iframe. So while a step that
// needs approval for submits runs unapproved, every request of its tab is
// paused (the Fetch domain of the browser target, which pauses every
// tab's documents, pauses every request for the step: watchAll,
// newtabs.go), and one that would send — a form submission, a navigation
// with a non-GET method, a fetch, XHR or beacon with a non-GET method — is
// put to classifySend (sendclass.go): a commit is refused before it leaves
// the browser, and the step then fails with needs_approval naming what it
// would have sent; chatter (a beacon, an analytics POST, a GraphQL query)
// goes and is listed in the step's result. An approved step lets exactly
// the approved send through, once.

// The tab's own interception is not turned on for the step (but in an
// attached browser, where the tab pauses its own documents: guard.go).
// Turning it on swaps the loaders of the page's renderer, and a renderer
// stopped in a dialog takes the new ones only after it: the fetch of a
// confirm's handler went out unjudged (internal/adversarial
// TestConfirmDialogThatSendsNeedsApproval, seen 2026-12-06). Widening the
// browser target's patterns, whose interception is always on, swaps
// nothing.

// sendWatch is what a tab's guard does with sends while a step runs.
type sendWatch struct {
	// allow is the one send an approval let through ("POST http://…"),
	// or "" for none; used is set once it went.
	allow string
	used  bool
	// held are the sends refused, oldest first: the commits
	// (classifySend). passed are the chatter let go, for the step's
	// result.
	held, passed []heldSend
	// control is the words of the control the step presses, for
	// classifySend; "" when none.
	control string
	// last is when the tab last asked for a request while watched
	// (awaitQuiet).
	last time.Time
	// pending counts the form submissions the page asked for whose
	// request has not been seen yet: a submission is a task of its own,
	// and may start after the action's input and settle are done.
	pending int
	// docsOnly holds only documents (a form submission, a navigation
	// with a non-GET method) and lets the page's fetch, XHR and beacons
	// go: a sheet's cell write, which the app saves by fetch.
	docsOnly bool
	// announced are the sends the tab's renderer said it started
	// (Network.requestWillBeSent) that no pause has brought to holdSend
	// yet: the step may not end before they are judged. A beacon or a
	// keepalive fetch the step's click starts reaches the interception a
	// task later than the renderer's word of it; on a loaded machine
	// after the step's settle, when the tab pauses documents only, and
	// it went out unjudged.
	announced map[network.RequestID]bool
	// judged are the requests holdSend has seen: the pause may come
	// before the renderer's word of it (two processes), and a request
	// judged already is not waited for again.
	judged map[network.RequestID]bool
	// after is set once the step ended and the watch goes on
	// (sendgate_after.go): a commit held is a late send of lateAction on
	// lateControl (typed as lateTarget), told in the page's looks.
	after                  bool
	lateAction, lateTarget string
	lateControl            controlID
	navSeq                 int // the page the step began on (tab.navSeq)
	// ours are requests of waymark's own ("POST https://…") an after-watch
	// lets pass while they are made (exemptOurs).
	ours []string
}

// announce notes a send the tab's renderer started while a step is
// watched (onEvent, with t.mu held).
func (w *sendWatch) announce(ev *network.EventRequestWillBeSent) {
	if ev.Request == nil || ev.RedirectResponse != nil {
		return
	}
	switch strings.ToUpper(ev.Request.Method) {
	case "GET", "HEAD", "OPTIONS":
		return
	}
	if w.judged[ev.RequestID] {
		return
	}
	if w.announced == nil {
		w.announced = map[network.RequestID]bool{}
	}
	w.announced[ev.RequestID] = true
}

// heldSend is one request the gate judged: refused, or let go as
// chatter. why is classifySend's reason.
type heldSend struct {
	method, url, kind, why string
	form                   map[string]string
}

// String is the send as a step's result lists it: "POST /hit (a beacon)".
func (h heldSend) String() string {
	if h.why == "" || h.why == h.kind {
		return fmt.Sprintf("%s %s (%s)", h.method, shortURL(h.url), h.kind)
	}
	return fmt.Sprintf("%s %s (%s: %s)", h.method, shortURL(h.url), h.kind, h.why)
}

// newWindow is the key of formNav for a form submission into a new
// window, whose frame does not exist yet when it is asked for.
const newWindow cdp.FrameID = "new window"

// sendPatterns are the Fetch patterns while a step is watched: every
// request, so that fetch/XHR/beacons can be judged too.
var sendPatterns = []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}

// docPatterns are the guard's usual patterns: documents only.
var docPatterns = []*fetch.RequestPattern{{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageRequest}}

// watchSends starts watching the tab's sends for one step; allow is the
// send an approval lets through, or ""; linger says, when the step ends,
// whether to watch a moment longer (awaitSends). The returned func stops
// watching and returns what was held: the commits.
func (t *tab) watchSends(ctx context.Context, allow string, linger func() bool) (func() []heldSend, error) {
	stop, err := t.watchSendsListed(ctx, allow, "", linger)
	if err != nil {
		return nil, err
	}
	return func() []heldSend { held, _ := stop(); return held }, nil
}

// watchSendsListed is watchSends that also returns the chatter it let go,
// for the step's result; control is the words of the control the step
// presses (classifySend), or "".
func (t *tab) watchSendsListed(ctx context.Context, allow, control string, linger func() bool) (func() (held, passed []heldSend), error) {
	return t.watchStep(ctx, allow, control, linger, nil)
}

// watchStep is watchSendsListed; keep, when set, is given the watch once
// the step ended, to go on watching after the step (sendgate_after.go);
// it must end it (keepWatching). A step that held a send keeps watching
// too: its control's handler may send again later. A step with no keep
// hands the tab back, once it ended, to the after-watch it took over.
func (t *tab) watchStep(ctx context.Context, allow, control string, linger func() bool, keep func(*sendWatch)) (func() (held, passed []heldSend), error) {
	w := &sendWatch{allow: allow, control: control, last: time.Now()}
	t.mu.Lock()
	w.navSeq = t.navSeq
	// This step's watch takes over from the last one's: for good when
	// it keeps watching after itself, else until it ends.
	var endAfter func() (resumed bool)
	if keep != nil {
		end := t.takeAfter()
		endAfter = func() bool { end(); return false }
	} else {
		endAfter = t.pauseAfter()
	}
	t.sends = w
	t.formNav = map[cdp.FrameID]bool{}
	t.mu.Unlock()
	if t.ownDocs {
		if _, err := call(ctx, t, fetch.Enable, fetch.EnableParams{Patterns: sendPatterns}); err != nil {
			t.dropWatch(w)
			endAfter()
			return nil, err
		}
	}
	return func() ([]heldSend, []heldSend) {
		t.awaitSends(ctx, linger())
		t.mu.Lock()
		held, passed := w.held, w.passed
		goOn := keep != nil && t.sends == w
		t.mu.Unlock()
		if goOn {
			keep(w)
			// The last step's watch kept the browser's patterns wide
			// until now; this step's have been since it began.
			endAfter()
			return held, passed
		}
		t.dropWatch(w)
		if !endAfter() && t.ownDocs {
			// On the tab's own context: the step's may be done.
			_, _ = cdp.Call(t.ctx, t.sess, fetch.Enable, fetch.EnableParams{Patterns: docPatterns})
		}
		return held, passed
	}, nil
}

// awaitSends waits, before a watched step ends, for the requests of the
// form submissions it asked for (at most settleNavStart); with linger set
// (the page has out-of-process frames, whose requests for a submission the
// tab does not hear of: newtabs.go judges them), for sendLinger more.
func (t *tab) awaitSends(ctx context.Context, linger bool) {
	// One round trip through the renderer first: its word of every send
	// the step's own handlers started (announce) is on the wire before
	// the answer. Not while a dialog is open: the renderer answers nothing
	// then, and the page, stopped in its dialog, starts no send either.
	t.mu.Lock()
	dialog := t.dialog != nil
	t.mu.Unlock()
	if !dialog {
		rctx, cancel := context.WithTimeout(ctx, settleNavStart)
		_, _ = call(rctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: "0"})
		cancel()
	}
	deadline := time.NewTimer(settleNavStart)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		pending := t.sends != nil && (t.sends.pending > 0 || len(t.sends.announced) > 0)
		t.mu.Unlock()
		if !pending {
			break
		}
		select {
		case <-t.watch():
		case <-time.After(20 * time.Millisecond):
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
	if linger {
		select {
		case <-time.After(sendLinger):
		case <-ctx.Done():
		}
	}
}

// sendLinger is how long a watched step on a page with out-of-process
// frames goes on watching after it settled: a submission in such a frame
// is a task of the frame's own renderer, started after the input returns
// (seen up to a few hundred milliseconds later on a loaded machine).
const sendLinger = 500 * time.Millisecond

// holdSend decides whether a paused request is a send the watched step
// may not make, and if so records it. popup says the request is the first
// document of a tab this one opened (newtabs.go). It never sends a command.
func (t *tab) holdSend(ev *fetch.EventRequestPaused, popup bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.sends
	if w == nil || ev.Request == nil {
		return false
	}
	w.last = time.Now()
	delete(w.announced, ev.NetworkID)
	if w.judged == nil {
		w.judged = map[network.RequestID]bool{}
	}
	w.judged[ev.NetworkID] = true
	method := strings.ToUpper(ev.Request.Method)
	kind := ""
	submission := false
	switch {
	case ev.ResourceType == network.ResourceTypeCSPViolationReport:
		return false // the browser's own report, not the page's
	case ev.ResourceType == network.ResourceTypeDocument && t.formNav[ev.FrameID]:
		kind, submission = "a form submission", true
		delete(t.formNav, ev.FrameID)
		w.pending--
	case popup && t.formNav[newWindow]:
		kind, submission = "a form submission into a new window", true
	case method == "GET" || method == "HEAD" || method == "OPTIONS":
		return false
	case ev.ResourceType == network.ResourceTypeDocument:
		kind = "a navigation with " + method
	case ev.ResourceType == network.ResourceTypePing:
		kind = "a beacon"
	default:
		kind = "a " + strings.ToLower(string(ev.ResourceType)) + " request"
	}
	if w.docsOnly && ev.ResourceType != network.ResourceTypeDocument && !submission {
		return false
	}
	what := method + " " + ev.Request.URL
	if w.allow != "" && !w.used && (what == w.allow || t.log.typed.Mask(what) == w.allow) {
		w.used = true
		return false
	}
	if i := slices.Index(w.ours, what); i >= 0 {
		w.ours = slices.Delete(w.ours, i, i+1)
		return false
	}
	resource := strings.ToLower(string(ev.ResourceType))
	if popup {
		resource = "document"
	}
	body, unread := bodyOf(ev.Request)
	v := classifySend(sendFacts{method: method, url: ev.Request.URL, page: t.docURL, kind: resource,
		submission: submission, body: body, unread: unread, control: w.control, typed: t.log.entered()})
	h := heldSend{method: method, url: ev.Request.URL, kind: kind, why: v.why, form: formOf(ev.Request, t.log.typed)}
	if !v.commit {
		w.passed = append(w.passed, h)
		return false
	}
	w.held = append(w.held, h)
	if w.after {
		t.noteLate(lateSend{action: w.lateAction, target: w.lateTarget, control: w.lateControl, held: h, at: time.Now()})
	}
	return true
}

// bodyOf is a request's body as the browser gave it; unread says it has
// one the browser left out (too long).
func bodyOf(r *network.Request) (body string, unread bool) {
	var b strings.Builder
	for _, e := range r.PostDataEntries {
		b.Write(e.Bytes)
	}
	return b.String(), r.HasPostData && b.Len() == 0
}

// formOf reads the fields a request would send: a form's urlencoded body
// or a GET form's query. As in a submit's approval (submit.go), no secret
// is shown: a field secret.Field or secret.Name calls secret is
// secret.Masked, a value typed as a secret in the session is its mark,
// and anything else the heuristic takes for a secret is masked.
func formOf(r *network.Request, typed *secret.Set) map[string]string {
	var body strings.Builder
	for _, e := range r.PostDataEntries {
		body.Write(e.Bytes)
	}
	raw := body.String()
	if raw == "" {
		if u, err := url.Parse(r.URL); err == nil {
			raw = u.RawQuery
		}
	}
	vals, err := url.ParseQuery(raw)
	if err != nil || len(vals) == 0 {
		return nil
	}
	out := make(map[string]string, len(vals))
	for k, vs := range vals {
		v := strings.Join(vs, ",")
		if v != "" && (secret.Name(k) || secret.Field{Words: k}.Secret()) {
			v = secret.Masked
		}
		out[k] = typed.Redact(v)
	}
	return out
}

// heldErr is the needs_approval error for a step whose sends were held.
// Its approval names the control as a submit's does (control.go), and is
// bound to its element too.
func (t *tab) heldErr(action, pageURL string, control controlID, held []heldSend) error {
	h := held[0]
	a := calls.Approval{Action: action, URL: t.log.typed.Mask(pageURL), Control: control.shown,
		Why: "sends " + h.kind + ": " + h.method + " " + shortURL(h.url), Form: h.form}
	a.Sends = t.heldSends(h, &a.Why)
	a = t.bind(a)
	t.noteHeldControl(a.Token, control)
	return needsApproval(a, heldMsg(a, held))
}

// heldSends is the request an approval of h names and lets through: its
// method and URL, each value typed as a secret in the session as its mark
// (an approval is the data of an error, which the CLI's --json envelope
// and an MCP reply print and a batch row's journal keeps; the session
// masks only an error's words). The gate compares a request with it
// masked alike. why, which names the URL too, is masked the same, as is
// the page's URL (heldErr), as a submit's approval has it (submit.go).
func (t *tab) heldSends(h heldSend, why *string) string {
	*why = t.log.typed.Mask(*why)
	return t.log.typed.Mask(h.method + " " + h.url)
}

// heldMsg is the message of heldErr: the approval's line, and what made
// the first held request a commit when its kind does not say it.
func heldMsg(a calls.Approval, held []heldSend) string {
	h := held[0]
	msg := a.Line()
	if h.why != "" && h.why != h.kind {
		msg += " (" + h.why + ")"
	}
	msg += ", so it needs approval; the request was stopped before it left the browser"
	if len(held) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(held)-1)
	}
	return msg
}

// shortURL is a URL without its query, for messages.
func shortURL(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		return raw[:i]
	}
	return raw
}

// An approval is bound to the page load it was given on and used once:
// its Token is the main frame's loader id and a number, so an approval
// replayed on a later load, or a second time on the same load, is refused.

// bind gives an approval its token.
func (t *tab) bind(a calls.Approval) calls.Approval {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.approvalSeq++
	a.Token = string(t.loader) + "." + strconv.Itoa(t.approvalSeq)
	return a
}

// approvalFresh refuses an approval given on another page load, or
// already used.
func (t *tab) approvalFresh(a calls.Approval) error {
	t.mu.Lock()
	loader := string(t.loader)
	used := t.usedApprovals[a.Token]
	t.mu.Unlock()
	switch {
	case a.Token == "":
		return needsApprovalAgain("the approval has no token: send back the approval a needs_approval error carried, unchanged")
	case !strings.HasPrefix(a.Token, loader+"."):
		return needsApprovalAgain("the approval was given on an earlier load of the page; nothing was pressed")
	case used:
		return needsApprovalAgain("the approval was used already; nothing was pressed")
	}
	return nil
}

// useApproval marks an approval used.
func (t *tab) useApproval(a calls.Approval) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.usedApprovals == nil {
		t.usedApprovals = map[string]bool{}
	}
	t.usedApprovals[a.Token] = true
}

// needsApprovalAgain is the refusal of a stale approval: ask again.
func needsApprovalAgain(msg string) error {
	return &calls.Error{Kind: calls.ErrNeedsApproval, Msg: msg,
		Hint: "run the action again without the approval to get a fresh one for the page as it is"}
}

// withoutSubmits runs typing that needs no approval (a cell's write, a
// document's insert) with the tab's form submissions and non-GET
// navigations held (sendgate.go): a page dressed as a spreadsheet or an
// editor (their markers are classes any page can have) must not get a
// form sent by the Enter that commits a cell or starts a line. The app's
// own saves, by fetch or XHR, go. what names the typing in the error
// ("writing B2").
func (s *Session) withoutSubmits(ctx context.Context, t *tab, what string, do func() error) error {
	stop, err := t.watchSends(ctx, "", func() bool { return s.browser.hasFrames(t.id) })
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.sends.docsOnly = true
	t.mu.Unlock()
	if err := s.browser.watchAll(ctx, +1); err != nil {
		stop()
		return err
	}
	defer s.browser.watchAll(context.WithoutCancel(ctx), -1)
	err = do()
	if held := stop(); len(held) > 0 {
		h := held[0]
		return calls.Errorf(calls.ErrNotInteractable, "the page may be a form dressed as a spreadsheet or an editor: run "+calls.Cmd("snapshot")+"; a form is sent with "+calls.Cmd("click")+" or press, which ask for approval",
			"%s would send %s (%s %s); it was stopped before it left the browser, and nothing was sent", what, h.kind, h.method, shortURL(h.url))
	}
	return err
}

// fillQuiet is how long the page must have asked for nothing after a
// fill's last write before its gate lifts: a page saves a change it
// debounces (an autosave 400 ms after a select changes) after the fill's
// writes are done. fillQuietMax bounds the wait on a page that never goes
// quiet (a poll).
const (
	fillQuiet    = time.Second
	fillQuietMax = 5 * time.Second
)

// awaitQuiet waits, with the tab's sends still watched, until neither the
// step's end nor the page's last request is less than quiet ago, for at
// most max.
func (t *tab) awaitQuiet(ctx context.Context, quiet, max time.Duration) {
	start := time.Now()
	deadline := start.Add(max)
	for {
		t.mu.Lock()
		last := start
		if t.sends != nil && t.sends.last.After(last) {
			last = t.sends.last
		}
		t.mu.Unlock()
		wait := time.Until(last.Add(quiet))
		if wait <= 0 {
			return
		}
		if left := time.Until(deadline); wait > left {
			if left <= 0 {
				return
			}
			wait = left
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
	}
}
