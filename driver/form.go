package driver

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// Forms as ledgers (issue 17). A read runs one script per frame, in our
// isolated world (js/form.js), that lists the frame's fields as a person
// sees them — custom widgets and open shadow roots included — and hands
// back their nodes, which become refs. Out-of-process frames are read
// through their own targets (frames.go). A frame that cannot be read is
// named in the result's errors, never taken as empty.

//go:embed js/form.js
var jsForm string

// frameReadTimeout bounds the read of one frame: a frame whose page is
// busy (a script that does not end) is named in the errors, and the rest
// is read.
const frameReadTimeout = 2 * time.Second

// describeAtOnce bounds the node lookups of a read in flight at once.
const describeAtOnce = 16

// formGroup names the object groups a read's remote objects live in.
const formGroup = "waymark-form"

// formField is one field of a read: what the caller sees and what the
// driver needs to act on it.
type formField struct {
	calls.FormField
	el     element   // the field (for a radio group, its first option)
	input  *element  // a drop zone's file input, if it has one
	opts   []element // a radio group's options, in the order of Options
	secret bool      // its value is never shown
	typ    string
	// readonly says it takes no typing: a date is picked on its calendar.
	readonly bool
	section  string // slug of the repeated section's title, for adders
	name     string // its name attribute, which a published definition names it by
}

// formAdder is a button that adds a copy of a repeated section.
type formAdder struct {
	section string // the section's key prefix: "experience"
	words   string // what it says: "Add another vessel"
	submits bool   // it would send its form: never pressed
	hidden  bool   // the page hid it: it allows no more copies
	el      element
}

// formScan is one read of the tab's forms.
type formScan struct {
	url, title string
	fields     []*formField
	adders     []formAdder
	errors     []calls.FrameError
}

// scanRow is a field as js/form.js reports it.
type scanRow struct {
	Key          string            `json:"key"`
	Label        string            `json:"label"`
	Kind         string            `json:"kind"`
	Node         int               `json:"node"`
	Input        int               `json:"input"`
	OptNodes     []int             `json:"opt_nodes"`
	Options      []string          `json:"options"`
	Required     bool              `json:"required"`
	Value        string            `json:"value"`
	Format       string            `json:"format"`
	Error        string            `json:"error"`
	Section      string            `json:"section"`
	Disabled     bool              `json:"disabled"`
	Marked       bool              `json:"marked"`
	Words        string            `json:"words"`
	Type         string            `json:"type"`
	Autocomplete string            `json:"autocomplete"`
	Readonly     bool              `json:"readonly"`
	Tag          string            `json:"tag"`
	Attrs        map[string]string `json:"attrs"`
}

// frameRef is one frame to read: the target whose session reaches it.
type frameRef struct {
	tid   target.ID
	sess  cdp.Session
	frame cdp.FrameID
	url   string
}

// formFrames lists the tab's frames, the page first, each with the
// session that reaches it: out-of-process frames are attached to (their
// subframes in the same process come with them).
func (s *Session) formFrames(ctx context.Context, t *tab) ([]frameRef, []calls.FrameError) {
	var out []frameRef
	var errs []calls.FrameError
	t.mu.Lock()
	if t.frames == nil {
		t.frames = map[target.ID]*frameTarget{}
	}
	t.mu.Unlock()
	// The out-of-process frames of this tab, with their parents.
	oop := map[target.ID]target.ID{}
	s.browser.mu.Lock()
	for id, p := range s.browser.frameParent {
		root := p
		for range maxFrameDepth + 1 {
			up, ok := s.browser.frameParent[root]
			if !ok {
				break
			}
			root = up
		}
		if root == t.id {
			oop[id] = p
		}
	}
	s.browser.mu.Unlock()
	urls := map[target.ID]string{}
	named := func(id target.ID) string {
		if u := urls[id]; u != "" {
			return u
		}
		if in, err := chromedp.CallBrowser(s.browser.ctx, target.GetTargetInfo, target.GetTargetInfoParams{TargetID: id}); err == nil && in.TargetInfo != nil {
			return shownURL(in.TargetInfo.URL)
		}
		return string(id)
	}
	var walk func(tid target.ID, sess cdp.Session, ft *page.FrameTree)
	walk = func(tid target.ID, sess cdp.Session, ft *page.FrameTree) {
		if ft == nil || ft.Frame == nil {
			return
		}
		id := target.ID(ft.Frame.ID)
		if _, other := oop[id]; other && id != tid {
			// Read through its own target; its parent knows its URL.
			urls[id] = ft.Frame.URL
		} else {
			out = append(out, frameRef{tid: tid, sess: sess, frame: ft.Frame.ID, url: ft.Frame.URL + ft.Frame.URLFragment})
		}
		for _, c := range ft.ChildFrames {
			walk(tid, sess, c)
		}
	}
	tree, err := cdp.Call(ctx, t.sess, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return nil, []calls.FrameError{{Frame: t.url(), Error: browserErr(err).Error()}}
	}
	walk("", t.sess, tree.FrameTree)
	// Parents before children, so a frame's parent is attached first.
	var ids []target.ID
	for id := range oop {
		ids = append(ids, id)
	}
	for attached := map[target.ID]bool{t.id: true, "": true}; len(ids) > 0; {
		var next []target.ID
		for _, id := range ids {
			p := oop[id]
			if !attached[p] && oop[p] != "" {
				next = append(next, id)
				continue
			}
			attached[id] = true
			actx, cancel := context.WithTimeout(ctx, frameReadTimeout)
			ft, err := t.attachFrame(actx, id, p)
			if err != nil {
				msg := "cannot attach to the frame: " + browserErr(err).Error()
				if actx.Err() != nil && ctx.Err() == nil {
					msg = fmt.Sprintf("the frame did not answer in %s (its page is busy)", frameReadTimeout)
				}
				cancel()
				errs = append(errs, calls.FrameError{Frame: named(id), Error: msg})
				continue
			}
			sub, err := cdp.Call(actx, ft.sess, page.GetFrameTree, cdp.Empty{})
			cancel()
			if err != nil {
				errs = append(errs, calls.FrameError{Frame: named(id), Error: browserErr(err).Error()})
				continue
			}
			walk(id, ft.sess, sub.FrameTree)
		}
		if len(next) == len(ids) {
			for _, id := range next {
				errs = append(errs, calls.FrameError{Frame: named(id), Error: "its parent frame is not on the page"})
			}
			break
		}
		ids = next
	}
	return out, errs
}

// scanForm reads the fields of every frame of the tab, the frames in
// parallel.
func (s *Session) scanForm(ctx context.Context, t *tab) (*formScan, error) {
	frames, errs := s.formFrames(ctx, t)
	type result struct {
		adders []formAdder
		fields []*formField
		url    string
		title  string
		err    error
	}
	results := make([]result, len(frames))
	var wg sync.WaitGroup
	for i, f := range frames {
		wg.Go(func() {
			r := &results[i]
			r.fields, r.adders, r.url, r.title, r.err = s.scanFrame(ctx, t, f)
		})
	}
	wg.Wait()
	sc := &formScan{errors: errs}
	seen := map[string]int{}
	for i, r := range results {
		if r.err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			where := frames[i].url
			if where == "" {
				where = string(frames[i].frame)
			}
			if i == 0 {
				return nil, r.err // the page itself: nothing to read
			}
			sc.errors = append(sc.errors, calls.FrameError{Frame: where, Error: r.err.Error()})
			continue
		}
		if i == 0 {
			sc.url, sc.title = r.url, r.title
		}
		for _, f := range r.fields {
			if i > 0 {
				f.Frame = r.url
			}
			// Keys are unique across frames too: a second "email" is "email_2".
			if n := seen[f.Key]; n > 0 {
				seen[f.Key] = n + 1
				f.Key = fmt.Sprintf("%s_%d", f.Key, n+1)
			} else {
				seen[f.Key] = 1
			}
			sc.fields = append(sc.fields, f)
		}
		sc.adders = append(sc.adders, r.adders...)
	}
	s.maskFields(sc.fields)
	return sc, nil
}

// scanFrame runs js/form.js in one frame and turns its rows into fields
// with refs.
func (s *Session) scanFrame(ctx context.Context, t *tab, f frameRef) ([]*formField, []formAdder, string, string, error) {
	var res runtime.EvaluateResult
	names, _ := json.Marshal(identityAttrs)
	// A group of the frame's own: frames of one process are read at once
	// on one session, whose groups they share, and the first read to end
	// would release the others' nodes.
	group := formGroup + "-" + string(f.frame)
	// The frame's page must answer the read in frameReadTimeout: one busy
	// in a script never does. What follows (its nodes' ids) is the
	// browser's work, bounded by ctx alone.
	ectx, cancel := context.WithTimeout(ctx, frameReadTimeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		id, err := t.world(ectx, f.sess, f.frame)
		if err == nil {
			res, err = cdp.Call(ectx, f.sess, runtime.Evaluate, runtime.EvaluateParams{
				Expression: jsForm + ".scan(" + string(names) + ")", ContextID: id, ObjectGroup: group,
			})
		}
		if contextGone(err) && attempt == 0 {
			t.forgetWorld(f.frame)
			continue
		}
		if err != nil && ectx.Err() != nil && ctx.Err() == nil {
			return nil, nil, "", "", fmt.Errorf("the frame did not answer in %s (its page is busy)", frameReadTimeout)
		}
		if err != nil {
			return nil, nil, "", "", browserErr(err)
		}
		break
	}
	defer cdp.Call(context.WithoutCancel(ctx), f.sess, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
	if err := decodeResult(nil, res.ExceptionDetails, nil); err != nil {
		return nil, nil, "", "", err
	}
	if res.Result == nil || res.Result.ObjectID == "" {
		return nil, nil, "", "", fmt.Errorf("the frame's read returned nothing")
	}
	props, err := cdp.Call(ctx, f.sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID, OwnProperties: new(true)})
	if err != nil {
		return nil, nil, "", "", browserErr(err)
	}
	var head struct {
		URL    string    `json:"url"`
		Title  string    `json:"title"`
		Fields []scanRow `json:"fields"`
		Adders []struct {
			Section string `json:"section"`
			Node    int    `json:"node"`
			Words   string `json:"words"`
			Submits bool   `json:"submits"`
			Hidden  bool   `json:"hidden"`
		} `json:"adders"`
	}
	objs := map[int]runtime.RemoteObjectID{}
	for _, p := range props.Result {
		var i int
		if _, err := fmt.Sscanf(p.Name, "%d", &i); err != nil || p.Value == nil {
			continue
		}
		if i == 0 {
			var js string
			if err := json.Unmarshal(p.Value.Value, &js); err != nil {
				return nil, nil, "", "", fmt.Errorf("the frame's read: %w", err)
			}
			if err := json.Unmarshal([]byte(js), &head); err != nil {
				return nil, nil, "", "", fmt.Errorf("the frame's read: %w", err)
			}
			continue
		}
		objs[i-1] = p.Value.ObjectID
	}
	// The nodes' backend ids, asked for several at a time.
	nodes := make([]cdp.BackendNodeID, len(objs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, describeAtOnce)
	for i, obj := range objs {
		if i < 0 || i >= len(nodes) {
			continue
		}
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			if d, err := cdp.Call(ctx, f.sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: obj}); err == nil && d.Node != nil {
				nodes[i] = d.Node.BackendNodeID
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, "", "", err // a read cut short is no read: never fewer fields
	}
	elOf := func(i int, what string) (element, bool) {
		if i < 0 || i >= len(nodes) || nodes[i] == 0 {
			return element{}, false
		}
		return element{tab: t, tid: f.tid, sess: f.sess, frame: f.frame, node: nodes[i], what: what}, true
	}
	var fields []*formField
	for _, r := range head.Fields {
		el, ok := elOf(r.Node, r.Key)
		if !ok {
			continue // it went away while read
		}
		ff := &formField{el: el, typ: r.Type, readonly: r.Readonly, name: r.Attrs["name"]}
		ff.FormField = calls.FormField{
			Key: r.Key, Label: r.Label, Kind: r.Kind, Format: r.Format, Required: r.Required, Value: r.Value,
			Options: r.Options, Error: r.Error, Section: r.Section, Disabled: r.Disabled,
		}
		ff.Ref = s.refs.assign(t, f.tid, f.frame, el.node)
		ff.el.what = ff.Ref
		// A ref first shown here is known by its tag and identity
		// attributes, so that acting on it later refuses a node the page
		// reused for another control (invariant 4).
		if e, ok := s.refs.lookup(ff.Ref); ok && e.tag == "" {
			line := fmt.Sprintf("%s %q [ref=%s]", r.Kind, clip(r.Label, 60), ff.Ref)
			s.refs.describe(ff.Ref, line, r.Tag, "", r.Attrs)
		}
		ff.el.line = fmt.Sprintf("%s %q [ref=%s]", r.Kind, clip(r.Label, 60), ff.Ref)
		if in, ok := elOf(r.Input, r.Key); ok {
			ff.input = &in
		}
		for _, o := range r.OptNodes {
			if oe, ok := elOf(o, r.Key); ok {
				ff.opts = append(ff.opts, oe)
			}
		}
		if i := strings.Index(r.Key, "["); i > 0 {
			ff.section = r.Key[:i]
		}
		// Its value is never shown: a secret, or a card's details (the
		// name on it, its expiry); nothing else is masked.
		sf := secret.Field{Words: r.Words, Type: r.Type, Autocomplete: r.Autocomplete}
		ff.secret = r.Marked || sf.Secret() || sf.CardDetail()
		fields = append(fields, ff)
	}
	var adders []formAdder
	for _, a := range head.Adders {
		if el, ok := elOf(a.Node, a.Section); ok {
			adders = append(adders, formAdder{section: a.Section, words: a.Words, submits: a.Submits, hidden: a.Hidden, el: el})
		}
	}
	return fields, adders, head.URL, head.Title, nil
}

// maskFields hides the values no output may show: secrets (by the field's
// words, or marked when a secret was typed) and card numbers anywhere.
func (s *Session) maskFields(fields []*formField) {
	s.mu.Lock()
	for _, f := range fields {
		if _, ok := s.secrets[f.el.node]; ok {
			f.secret = true
		}
		if f.input != nil {
			if _, ok := s.secrets[f.input.node]; ok {
				f.secret = true
			}
		}
	}
	s.mu.Unlock()
	for _, f := range fields {
		f.Value = shownValue(f, f.Value)
		f.Error = secret.Redact(f.Error)
	}
}

// shownValue is a field's value as outputs show it.
func shownValue(f *formField, v string) string {
	if v == "" {
		return ""
	}
	if f.secret {
		return secret.Masked
	}
	return secret.Redact(v)
}

// Form reads the current page's forms as fields.
func (s *Session) Form(ctx context.Context, _ calls.FormRequest) (reply *calls.Form, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if d := t.pendingDialog(); d != nil {
		return nil, calls.Errorf(calls.ErrNotInteractable, "answer it first: "+calls.Cmd("dialog accept|dismiss"), "%s is open (%q)", d.Named(), d.Message)
	}
	sc, err := s.scanForm(ctx, t)
	if err != nil {
		return nil, err
	}
	out := sc.form()
	s.overlayATS(ctx, t, sc, out)
	s.rememberFormPage(out)
	return out, nil
}

// form is the scan as the caller sees it.
func (sc *formScan) form() *calls.Form {
	out := &calls.Form{URL: shownURL(sc.url), Title: sc.title, Fields: make([]calls.FormField, 0, len(sc.fields)), Errors: sc.errors}
	for _, f := range sc.fields {
		out.Fields = append(out.Fields, f.FormField)
	}
	return out
}
