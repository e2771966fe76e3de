package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/locator"
	"github.com/waymark-dev/waymark/internal/wait"
)

// Get reads one thing from the page.
func (s *Session) Get(ctx context.Context, req calls.GetRequest) (reply *calls.GetResult, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, readPage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	switch req.What {
	case "title", "url":
		info, err := s.pageInfo(ctx, t)
		if err != nil {
			return nil, err
		}
		if req.What == "title" {
			return &calls.GetResult{Value: info.Title, Found: true}, nil
		}
		return &calls.GetResult{Value: info.URL, Found: true}, nil
	case "count":
		if req.Target == "" {
			return nil, calls.Errorf(calls.ErrBadInput, "usage: "+calls.Cmd("get count LOCATOR"), "count needs a locator")
		}
		loc, err := locator.Parse(req.Target)
		if err != nil {
			return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "count takes a locator such as role=link or css=.item"}
		}
		els, err := s.match(ctx, t, loc)
		if err != nil {
			return nil, err
		}
		return &calls.GetResult{Count: len(els), Found: true}, nil
	case "text", "value", "attr", "html":
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "get title|url|text REF|value REF|attr REF NAME|html REF|count LOCATOR", "unknown get %q", req.What)
	}
	el, err := s.find(ctx, t, req.Target, 0)
	if err != nil {
		return nil, err
	}
	var out string
	switch req.What {
	case "text":
		// A field's text is not what is typed in it: the text stays what
		// it is (a check of text must not pass on a value), and the note
		// names the read that gives the value.
		// A checkbox or radio holds nothing typed: its value is what it
		// sends, checked or not, so the note points at the outline's
		// [checked] instead.
		var got struct {
			Text  string `json:"text"`
			Field string `json:"field"` // "text", "check" or ""
		}
		if err := el.callOn(ctx, `function(){ const tag = (this.tagName || '').toUpperCase(); const check = tag === 'INPUT' && (this.type === 'checkbox' || this.type === 'radio'); return { text: (this.innerText ?? this.textContent ?? '').trim(), field: check ? 'check' : (tag === 'INPUT' || tag === 'TEXTAREA') ? 'text' : '' } }`, &got); err != nil {
			return nil, err
		}
		res := &calls.GetResult{Value: got.Text, Found: true}
		switch got.Field {
		case "text":
			res.Note = fmt.Sprintf("the text of a field is not what is typed in it; read that with \"waymark get value %s\"", req.Target)
		case "check":
			res.Note = checkedNote
		}
		return res, nil
	case "value":
		var got struct {
			Value string `json:"value"`
			Check bool   `json:"check"`
		}
		if err := el.callOn(ctx, `function(){ const check = (this.tagName || '').toUpperCase() === 'INPUT' && (this.type === 'checkbox' || this.type === 'radio'); if ('value' in this) return { value: String(this.value), check }; return { value: this.getAttribute('aria-valuenow') || (this.isContentEditable ? this.innerText : '') } }`, &got); err != nil {
			return nil, err
		}
		res := &calls.GetResult{Value: got.Value, Found: true}
		if got.Check {
			res.Note = "this is the value the box sends when checked, whether it is checked or not; " + checkedNote
		}
		return res, nil
	case "html":
		var res *dom.GetOuterHTMLResult
		r, e := cdpCallEl(ctx, el, dom.GetOuterHTML, dom.GetOuterHTMLParams{BackendNodeID: el.node})
		res, err = &r, e
		if err == nil {
			out = res.OuterHTML
		}
	case "attr":
		if req.Name == "" {
			return nil, calls.Errorf(calls.ErrBadInput, "usage: "+calls.Cmd("get attr REF NAME"), "attr needs an attribute name")
		}
		var v *string
		if err := el.callOn(ctx, `function(n){ return this.getAttribute(n) }`, &v, req.Name); err != nil {
			return nil, err
		}
		if v == nil {
			return &calls.GetResult{Found: false}, nil
		}
		return &calls.GetResult{Value: *v, Found: true}, nil
	}
	if err != nil {
		return nil, err
	}
	return &calls.GetResult{Value: out, Found: true}, nil
}

// checkedNote says where a checkbox's or radio's state is read: get text
// and get value give none of it.
const checkedNote = "whether a checkbox or radio is checked shows as [checked] on its line in \"waymark snapshot\""

// Eval runs JavaScript in the page: in an isolated world unless the caller
// opts into the page's own world.
func (s *Session) Eval(ctx context.Context, req calls.EvalRequest) (reply *calls.EvalResult, err error) {
	defer s.masked(&reply, &err)
	if strings.TrimSpace(req.Expression) == "" {
		return nil, calls.Errorf(calls.ErrBadInput, "usage: "+calls.Cmd("eval 'document.title'"), "no expression given")
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	var raw json.RawMessage
	if !req.MainWorld {
		if err := t.evalWorld(ctx, t.sess, t.mainFrame(), req.Expression, &raw); err != nil {
			return nil, err
		}
	} else {
		res, err := call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: req.Expression, ReturnByValue: new(true), AwaitPromise: new(true)})
		if err != nil {
			return nil, err
		}
		if err := decodeResult(res.Result, res.ExceptionDetails, &raw); err != nil {
			return nil, err
		}
	}
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	return &calls.EvalResult{Value: raw}, nil
}

const defaultWaitTimeout = 30 * time.Second

// Wait waits for one condition on the page.
func (s *Session) Wait(ctx context.Context, req calls.WaitRequest) (reply *calls.PageInfo, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	timeout := defaultWaitTimeout
	if req.TimeoutMS > 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
	}
	var check func() (bool, error)
	var what string
	switch {
	case req.Text != "" || req.Gone != "":
		text, want := req.Text, true
		what = "text " + quote(text) + " to appear"
		if req.Gone != "" {
			text, want = req.Gone, false
			what = "text " + quote(text) + " to disappear"
		}
		check = func() (bool, error) {
			var has bool
			err := t.evalWorld(ctx, t.sess, t.mainFrame(), `(t => (document.body ? document.body.innerText : '').includes(t))(`+jsString(text)+`)`, &has)
			return has == want, err
		}
	case req.Selector != "":
		what = "an element matching " + quote(req.Selector) + " to be visible"
		check = func() (bool, error) {
			var ok bool
			err := t.evalWorld(ctx, t.sess, t.mainFrame(), `(s => { const e = document.querySelector(s); if (!e) return false; const r = e.getBoundingClientRect(); const st = getComputedStyle(e); return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' })(`+jsString(req.Selector)+`)`, &ok)
			if badSelector(err) {
				return false, calls.Errorf(calls.ErrBadInput, "check the CSS selector", "bad CSS selector %q", req.Selector)
			}
			return ok, err
		}
	case req.URL != "":
		what = "the URL to match " + quote(req.URL)
		check = func() (bool, error) { return calls.MatchURL(req.URL, t.url()), nil }
	case req.Load:
		what = "the page to load"
		check = func() (bool, error) {
			var state string
			err := t.evalWorld(ctx, t.sess, t.mainFrame(), `document.readyState`, &state)
			return state == "complete", err
		}
	case req.MS > 0:
		if err := wait.Sleep(ctx, time.Duration(req.MS)*time.Millisecond); err != nil {
			return nil, err
		}
		return s.pageInfo(ctx, t)
	default:
		// In words every front reads: the CLI and the MCP wait tool
		// refuse this themselves, each naming its own flags or arguments.
		return nil, calls.Errorf(calls.ErrBadInput, "say what to wait for: a text to appear or to go, a CSS selector, a URL glob, the load, or a pause", "nothing to wait for")
	}
	deadline := time.Now().Add(timeout)
	for {
		ok, err := check()
		if err != nil && !contextGone(err) {
			return nil, err
		}
		if ok {
			return s.pageInfo(ctx, t)
		}
		if time.Now().After(deadline) {
			return nil, calls.Errorf(calls.ErrTimeout, "pass --timeout to wait longer, or take a snapshot to see the page",
				"timed out after %s waiting for %s", timeout, what)
		}
		if err := wait.Sleep(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func jsString(s string) string { return quote(s) }
