package driver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/keys"
	"github.com/waymark-dev/waymark/internal/timing"
)

const defaultActTimeout = 5 * time.Second

// Act performs one element action on the current tab with real input
// events, then waits for what it started to settle.
func (s *Session) Act(ctx context.Context, req calls.ActRequest) (reply *calls.Outcome, err error) {
	defer s.masked(&reply, &err)
	endEnter := timing.Span("act: enter")
	t, ctx, end, err := s.enter(ctx, actPage) // its probe runs beside the plan, awaited below
	endEnter()
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if d := t.pendingDialog(); d != nil {
		return nil, dialogOpen(d)
	}
	timeout := defaultActTimeout
	if req.TimeoutMS > 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
	}
	if req.Approve != nil {
		if err := t.approvalFresh(*req.Approve); err != nil {
			return nil, err
		}
	}
	var target *element // the element acted on, if the action has one
	var pressed string  // what a click-at pressed
	var shown string    // the control as the page shows it, if the gate read it
	var do func(context.Context) error
	// The history entry to go back to if the guard refuses where the
	// action leads (guard.go), and the overlays the popups check judges,
	// are read while the plan finds a ref's element, which cannot wait:
	// all three only read the page, two round trips fewer. A plan that
	// may wait for its element (a locator) reads them after it, right
	// before the action, as an overlay may come meanwhile.
	var entryC chan int64
	var popupsC chan popupsRead
	if _, ref := normalizeRef(req.Target); ref && req.Kind != calls.ActClickAt && req.Kind != calls.ActDrag {
		entryC, popupsC = make(chan int64, 1), make(chan popupsRead, 1)
		go func() { entryC <- t.entry(ctx) }()
		go func() { popupsC <- t.readPopups(ctx) }()
	}
	endPlan := timing.Span("act: plan")
	if req.Kind == calls.ActClickAt {
		do, err = s.planClickAt(ctx, t, req, timeout, &target, &pressed, &shown) // clickat.go
	} else {
		do, err = s.plan(ctx, t, req, timeout, &target, &shown)
	}
	endPlan()
	if err != nil {
		return nil, err
	}
	// The control as approvals name it (control.go), for a step that
	// comes approved or asks for submits. An approval is of it, or
	// nothing is pressed; a step that asks reads it (when the gate did
	// not) beside the popups' check, and the call waits for the read
	// before it ends, which lets go of the handles the read made.
	var ctl controlID
	var readCtl func() controlID
	switch {
	case req.Approve != nil:
		ctl = s.actControl(ctx, target, shown, req)
		if !t.approvalFits(*req.Approve, ctl) {
			return nil, needsApprovalAgain(fmt.Sprintf("the approval is for %s, not %s; nothing was pressed",
				calls.ShownControl(req.Approve.Control), calls.ShownControl(ctl.shown)))
		}
	case req.Submits == "ask":
		c := make(chan controlID, 1)
		go func() { c <- s.actControl(ctx, target, shown, req) }()
		readCtl = sync.OnceValue(func() controlID { return <-c })
		defer readCtl()
	}
	// Nothing that changes the page is sent before the page answered.
	if err := t.awaitEntryProbe(ctx); err != nil {
		return nil, err
	}
	// Otherwise the history entry is read while the popups are checked.
	// It is read again if answering a popup may have moved it.
	endPopups := timing.Span("act: popups")
	if entryC == nil {
		entryC, popupsC = make(chan int64, 1), make(chan popupsRead, 1)
		go func() { entryC <- t.entry(ctx) }()
		popupsC <- t.readPopups(ctx)
	}
	closed, err := s.judgePopups(ctx, t, req.Target, <-popupsC)
	entry := <-entryC
	if err != nil {
		return nil, err
	}
	if len(closed) > 0 {
		entry = t.entry(ctx)
	}
	endPopups()
	// A step that needs approval for submits is watched as it runs: what
	// the check before acting missed is held at the point of sending.
	// Its watch goes on after the step, for what the control's handlers
	// send later (sendgate_after.go); what was stopped after an earlier
	// press of the same control needs approval before this one.
	var stop func() (held, passed []heldSend)
	linger := func() bool { return s.browser.hasFrames(t.id) }
	if readCtl != nil {
		ctl = readCtl()
	}
	keep := s.keepWatching(t, actionName(req), targetName(req), ctl)
	switch {
	case req.Approve != nil:
		t.useApproval(*req.Approve)
		if req.Approve.Sends != "" {
			t.forgetLate(ctl)
			stop, err = t.watchStep(ctx, req.Approve.Sends, req.Target, linger, keep)
		}
	case req.Submits == "ask":
		if late := t.lateFor(ctl); len(late) > 0 {
			return nil, t.heldErr(actionName(req), t.url(), ctl, late)
		}
		stop, err = t.watchStep(ctx, "", req.Target, linger, keep)
	}
	if err != nil {
		return nil, err
	}
	if stop == nil {
		t.endAfter() // a step watched by no one ends the last one's watch
	} else {
		if err := s.browser.watchAll(ctx, +1); err != nil {
			stop()
			return nil, err
		}
		defer s.browser.watchAll(context.WithoutCancel(ctx), -1)
	}
	s.keepFormPage(ctx, t, req.Kind) // a form page as it is when a click may leave it (form_review.go)
	dl := s.downloads.Mark()         // downloads that begin from here on are this action's
	// A watched step waits here for all it sends; others leave the rest
	// of their settle to the next command (pending.go).
	before := t.mark()
	out, err := s.perform(ctx, t, do, dl, paceOf(req.Kind), entry, stop == nil)
	if out != nil && err == nil && out.Dialog == nil && !out.Navigated && !t.leftPage(before) {
		out.NotSent = s.blockedSubmit(ctx, t, req, target)
	}
	var passed []heldSend
	if stop != nil {
		var held []heldSend
		if held, passed = stop(); len(held) > 0 {
			return nil, t.heldErr(actionName(req), t.url(), ctl, held)
		}
	}
	if out != nil {
		for _, p := range passed {
			out.Chatter = append(out.Chatter, p.String())
		}
		out.Closed = popupNote(closed)
		out.Pressed = pressed
		out.Downloads = s.downloads.Collect(ctx, dl) // waits for them to end (download.go)
	}
	return out, err
}

// actionName is how an approval names the action: "click", "press Enter".
func actionName(req calls.ActRequest) string {
	if req.Kind == calls.ActPress {
		return "press " + req.Key
	}
	return req.Kind
}

// targetName is the target as the caller typed it: how the page's looks
// say to press a control again (sendgate_after.go). An approval names the
// control as the page shows it (control.go), by this only when its
// element could not be read.
func targetName(req calls.ActRequest) string {
	if req.Target == "" {
		return "the focused element"
	}
	return req.Target
}

// plan checks the request and finds its elements before anything is
// pressed, so bad input changes nothing on the page.
//
// found is set to the element the action is on (the drag's source), for
// what is read of it after the action (blockedSubmit); shown to the
// control as the page shows it, when the submit check read it (gate).
func (s *Session) plan(ctx context.Context, t *tab, req calls.ActRequest, timeout time.Duration, found **element, shown *string) (func(context.Context) error, error) {
	h := t.handFor(req.Hand)
	needTarget := func() (*element, error) {
		el, err := s.find(ctx, t, req.Target, timeout)
		if el != nil {
			el.hand = h
			*found = el
		}
		return el, err
	}
	switch req.Kind {
	case calls.ActClick, calls.ActDblClick:
		button, err := mouseButton(req.Button)
		if err != nil {
			return nil, err
		}
		count := req.Count
		if req.Kind == calls.ActDblClick {
			count = 2
		}
		el, err := needTarget()
		if err != nil {
			return nil, err
		}
		if *shown, err = s.gate(ctx, t, el, req, "click"); err != nil {
			return nil, err
		}
		return func(ctx context.Context) error {
			p, err := el.reach(ctx, checkVisible|checkEnabled|checkHit, timeout, h)
			if err != nil {
				return err
			}
			if !p.download {
				t.graceLater()
			}
			return t.clickAt(ctx, p, button, count, h)
		}, nil
	case calls.ActHover:
		el, err := needTarget()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error {
			_, err := el.reach(ctx, checkVisible|checkHit, timeout, h)
			return err
		}, nil
	case calls.ActFocus:
		el, err := needTarget()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error { return el.focus(ctx) }, nil
	case calls.ActFill, calls.ActType:
		el, err := needTarget()
		if err != nil {
			return nil, err
		}
		s.markSecret(el, req.Secret) // before typing: no look may show it half typed
		if req.Secret != "" {
			s.register(req.Secret, req.Value) // every output masks it from now on (registry.go)
		}
		s.log.addEntered(targetName(req), req.Value) // a send that carries it commits (sendclass.go)
		if req.Kind == calls.ActType && strings.ContainsAny(req.Value, "\r\n") {
			// A line break is typed as Enter.
			if *shown, err = s.gate(ctx, t, el, req, "enter"); err != nil {
				return nil, err
			}
		}
		if req.Kind == calls.ActFill {
			t.noteFilled(el, req.Reader, req.Value) // its reader's next look leaves out the echo (look.go)
			return s.watchSecret(el, req.Secret, func(ctx context.Context) error { return el.fill(ctx, req.Value, timeout, h) }), nil
		}
		return s.watchSecret(el, req.Secret, func(ctx context.Context) error { return el.typeText(ctx, req.Value, timeout, h) }), nil
	case calls.ActPress:
		evs, err := keys.Press(req.Key)
		if err != nil {
			return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "use a key name such as Enter, Tab, Escape, ArrowDown or a chord such as Control+A"}
		}
		var el *element
		if req.Target != "" {
			if el, err = needTarget(); err != nil {
				return nil, err
			}
		}
		if *shown, err = s.gate(ctx, t, el, req, keyMode(evs)); err != nil {
			return nil, err
		}
		return func(ctx context.Context) error {
			if el != nil {
				if err := el.focus(ctx); err != nil {
					return err
				}
			}
			return keys.Dispatch(ctx, t.sess, evs)
		}, nil
	case calls.ActSelect:
		if len(req.Values) == 0 {
			// In words every front reads (a tool's values, a program's
			// ActRequest.Values): the CLI asks for a value itself.
			return nil, calls.Errorf(calls.ErrBadInput, "name the option to choose, by its label or its value", "select needs at least one value")
		}
		el, err := needTarget()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error { return el.selectOptions(ctx, req.Values, timeout) }, nil
	case calls.ActCheck, calls.ActUncheck:
		el, err := needTarget()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error { return el.setChecked(ctx, req.Kind == calls.ActCheck, timeout, h) }, nil
	case calls.ActScroll:
		return s.planScroll(ctx, t, req, timeout)
	case calls.ActUpload:
		files, err := s.browser.uploads().Check(req.Files, req.Dir)
		if err != nil {
			return nil, err
		}
		el, err := needTarget()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error {
			_, err := cdpCallEl(ctx, el, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: files, BackendNodeID: el.node})
			if notFileInput(err) {
				return calls.Errorf(calls.ErrBadInput, "upload to an <input type=file> element", "%s is not a file input", el.what)
			}
			return err
		}, nil
	case calls.ActDrag:
		if (req.To == "") == (req.By == nil) {
			// Not drag's usage line: the CLI refuses this itself, and the
			// fronts this reaches say --by their way (calls.NameFlags).
			return nil, calls.Errorf(calls.ErrBadInput, "give a target to drop on or --by DX,DY, not both", "drag needs a drop target or an offset (one of them)")
		}
		src, err := needTarget()
		if err != nil {
			return nil, err
		}
		var dst *element
		if req.To != "" {
			if dst, err = s.find(ctx, t, req.To, timeout); err != nil {
				return nil, err
			}
		}
		return func(ctx context.Context) error {
			from, err := src.actionable(ctx, checkVisible|checkHit, timeout)
			if err != nil {
				return err
			}
			// By an offset: the drop is where the source's centre moves
			// to (a slider's thumb, a map panned, a card moved along).
			to := point{X: from.X, Y: from.Y}
			if dst != nil {
				if to, err = dst.actionable(ctx, checkVisible, timeout); err != nil {
					return err
				}
			} else {
				to.X, to.Y = from.X+req.By.X, from.Y+req.By.Y
			}
			actx, cancel := t.actionContext(ctx)
			defer cancel()
			return chromedp.Do(actx, chromedp.DragAndDropXY(from.X, from.Y, to.X, to.Y))
		}, nil
	case "":
		return nil, calls.Errorf(calls.ErrBadInput, "", "no action kind given")
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "actions: click, dblclick, click-at, hover, focus, fill, type, press, select, check, uncheck, scroll, upload, drag", "unknown action %q", req.Kind)
	}
}

// actionContext derives a chromedp context for the tab that ends when the
// request's ctx ends, for chromedp actions that need one.
func (t *tab) actionContext(ctx context.Context) (context.Context, context.CancelFunc) {
	actx, cancel := context.WithCancel(t.ctx)
	stop := context.AfterFunc(ctx, cancel)
	return actx, func() { stop(); cancel() }
}

func mouseButton(s string) (input.MouseButton, error) {
	switch strings.ToLower(s) {
	case "", "left":
		return input.MouseButtonLeft, nil
	case "right":
		return input.MouseButtonRight, nil
	case "middle":
		return input.MouseButtonMiddle, nil
	}
	return "", calls.Errorf(calls.ErrBadInput, "--button is left, right or middle", "unknown mouse button %q", s)
}

// perform runs the action, reporting a dialog that opens during it at
// once: a dialog blocks the page, so the input call would not return until
// someone answers it.
//
// With early set, it answers once what the action did is known and leaves
// the rest of the wait to the tab's pending settle (pending.go).
func (s *Session) perform(ctx context.Context, t *tab, do func(context.Context) error, dl int, p pace, entry int64, early bool) (*calls.Outcome, error) {
	before := t.mark()
	tabsBefore := s.tabCount()
	from := shownURL(t.landed())
	_ = t.takeBlocked()
	_ = t.takeGraceLater()
	done := make(chan error, 1)
	endInput := timing.Span("act: input")
	go func() { done <- do(ctx) }()
	for {
		changed := t.watch()
		select {
		case err := <-done:
			endInput()
			if err != nil {
				return nil, err
			}
			defer timing.Span("act: settle+outcome")()
			now := p
			graceLater := early && t.takeGraceLater() && p.grace > 0
			if graceLater {
				now.grace = 0
			}
			endSettle := timing.Span("act: settle")
			later, saw, err := t.settleUntil(ctx, before, now, early, false)
			endSettle()
			if err != nil {
				return nil, err
			}
			if blocked := t.takeBlocked(); blocked != nil {
				t.undoBlocked(ctx, entry)
				return nil, blocked
			}
			switch {
			case graceLater && !later && !saw:
				// Its grace, in the background.
				t.settleLater(before, p, false, entry)
			case later:
				now.grace = 0 // waited for already, or cut by what the click started
				t.settleLater(before, now, saw, entry)
			}
			if t.mark().openSeq != before.openSeq {
				s.awaitOpened(ctx, t, dl)
			}
			var out *calls.Outcome
			if later && t.isLoading() {
				// The new page is still loading: the browser's record of the
				// target may not have caught up with its URL (and, busy
				// committing the page, answers late), and its title is not
				// read yet (the next look has it). The tab's own record
				// says where it is.
				out, err = s.outcomeOn(ctx, t, before, tabsBefore, &calls.PageInfo{URL: shownURL(t.landed())})
			} else {
				out, err = s.outcome(ctx, t, before, tabsBefore)
			}
			if out != nil && out.Navigated {
				out.From = from
			}
			return out, err
		case <-changed:
			if d := t.pendingDialog(); d != nil {
				out, err := s.outcome(ctx, t, before, tabsBefore)
				if err != nil {
					return nil, err
				}
				out.Dialog = d
				return out, nil
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (s *Session) outcome(ctx context.Context, t *tab, before mark, tabsBefore int) (*calls.Outcome, error) {
	return s.outcomeOn(ctx, t, before, tabsBefore, nil)
}

// outcomeOn is outcome with the acting tab's page as info says, or as the
// browser says when info is nil.
func (s *Session) outcomeOn(ctx context.Context, t *tab, before mark, tabsBefore int, info *calls.PageInfo) (*calls.Outcome, error) {
	if info == nil {
		var err error
		if info, err = s.pageInfo(ctx, t); err != nil {
			return nil, err
		}
	}
	out := &calls.Outcome{URL: info.URL, Title: info.Title, Navigated: t.mark().navSeq != before.navSeq}
	var all []*tab
	if t.mark().openSeq != before.openSeq || s.browser.unadoptedPages(s.bcid) {
		all, _ = s.adoptNewTabs(ctx, t.id)
	}
	// Only a tab this action opened becomes current (issue 7): one whose
	// opener is the tab acted on. Others are listed and left alone. Each
	// it opened is judged once loaded, where its redirects ended; one on a
	// refused URL is closed and the action stops with the refusal, the
	// acting tab still current.
	var added []*tab
	var refused error
	opened := false
	for _, a := range all {
		if a.opener != t.id {
			added = append(added, a)
			continue
		}
		var loaded error
		if !s.browser.newRefused(a.id) { // a refused one stays blank
			loaded = a.waitLoaded(ctx)
		}
		if err := s.refuseTab(ctx, a); err != nil {
			if refused == nil {
				refused = err
			}
			continue
		}
		added = append(added, a)
		if opened {
			continue
		}
		opened = true
		s.mu.Lock()
		s.cur = a
		s.mu.Unlock()
		if loaded == nil {
			if ni, err := s.pageInfo(ctx, a); err == nil {
				out.URL, out.Title, out.Navigated = ni.URL, ni.Title, true
			}
		}
	}
	if refused != nil {
		return nil, refused
	}
	if len(added) > 0 || s.tabCount() != tabsBefore {
		list, _ := s.tabList(ctx)
		for _, a := range added {
			for _, ti := range list {
				if ti.URL == a.url() && !ti.Current {
					out.NewTabs = append(out.NewTabs, ti)
					break
				}
			}
		}
	}
	return out, nil
}

func (s *Session) tabCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tabs)
}
