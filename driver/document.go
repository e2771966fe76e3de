package driver

import (
	"context"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/doctext"
)

// Documents (issue 19 part 4): finding the editor, reading it with a
// copy, putting the caret and typing are the document room's
// (internal/doctext), through the core's elements, keys and clipboard
// (surface.go). What stays here is each call's session side: entering
// the tab, the page's URL and title, and a text typed as a secret —
// registered before the first key, its editor marked after.

// DocRead reads the document editor: the focus put in it, everything
// selected with Control+A, copied with Control+C, and the clipboard's
// text and HTML read; the selection is released after.
func (s *Session) DocRead(ctx context.Context, req calls.DocReadRequest) (reply *calls.Doc, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	v := s.view(t)
	d, err := doctext.FindEditor(ctx, v, req.Editor)
	if err != nil {
		return nil, err
	}
	text, html, err := d.Read(ctx, v)
	if err != nil {
		return nil, err
	}
	info, err := s.pageInfo(ctx, t)
	if err != nil {
		return nil, err
	}
	doc := &calls.Doc{URL: info.URL, Title: info.Title, Editor: d.Name(), Text: doctext.Clean(text), Lines: doctext.LineCount(text)}
	if req.HTML {
		doc.HTML = html
	}
	return doc, nil
}

// DocFind reads the document and says where the words are.
func (s *Session) DocFind(ctx context.Context, req calls.DocFindRequest) (reply *calls.DocFound, err error) {
	defer s.masked(&reply, &err)
	if strings.TrimSpace(req.Text) == "" {
		return nil, calls.Errorf(calls.ErrBadInput, "give the words to look for", "no words to find")
	}
	doc, err := s.DocRead(ctx, calls.DocReadRequest{Editor: req.Editor})
	if err != nil {
		return nil, err
	}
	ms := doctext.Find(doc.Text, req.Text)
	if ms == nil {
		ms = []calls.DocMatch{}
	}
	return &calls.DocFound{Editor: doc.Editor, Matches: ms}, nil
}

// DocInsert types text into the editor at one place (see
// calls.DocInsertRequest), then reads the document back and checks the
// text landed there, once.
func (s *Session) DocInsert(ctx context.Context, req calls.DocInsertRequest) (reply *calls.DocInserted, err error) {
	defer s.masked(&reply, &err)
	mode, words, err := doctext.InsertMode(req)
	if err != nil {
		return nil, err
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	v := s.view(t)
	d, err := doctext.FindEditor(ctx, v, req.Editor)
	if err != nil {
		return nil, err
	}
	in, err := doctext.Plan(ctx, v, d, req, mode, words)
	if err != nil {
		return nil, err
	}
	if req.Secret != "" {
		s.register(req.Secret, req.Text) // before the first key (registry.go)
	}
	if err := in.Type(ctx, v); err != nil {
		return nil, err
	}
	if req.Secret != "" {
		s.markSecret(elementOf(d.Element()), req.Secret)
	}
	return in.Check(ctx, v)
}

// worldNode runs fn in the main frame's isolated world (on the element
// on, or with no this) and returns the backend id of the element it
// returns; zero for null.
func (t *tab) worldNode(ctx context.Context, on *element, fn string) (cdp.BackendNodeID, error) {
	frame := t.mainFrame()
	id, err := t.world(ctx, t.sess, frame)
	if err != nil {
		return 0, err
	}
	defer release(ctx, t.sess, objectGroup)
	var obj *runtime.RemoteObject
	if on != nil {
		o, err := cdp.Call(ctx, on.sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: on.node, ExecutionContextID: id, ObjectGroup: objectGroup})
		if err != nil || o.Object == nil {
			return 0, on.gone(err)
		}
		res, err := call(ctx, t, runtime.CallFunctionOn, runtime.CallFunctionOnParams{FunctionDeclaration: fn, ObjectID: o.Object.ObjectID, ObjectGroup: objectGroup})
		if err != nil {
			return 0, err
		}
		if err := decodeResult(nil, res.ExceptionDetails, nil); err != nil {
			return 0, err
		}
		obj = res.Result
	} else {
		res, err := call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: "(" + fn + ").call(null)", ContextID: id, ObjectGroup: objectGroup})
		if err != nil {
			return 0, err
		}
		if err := decodeResult(nil, res.ExceptionDetails, nil); err != nil {
			return 0, err
		}
		obj = res.Result
	}
	if obj == nil || obj.ObjectID == "" || obj.Subtype != runtime.RemoteObjectSubtypeNode {
		return 0, nil
	}
	d, err := call(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: obj.ObjectID})
	if err != nil {
		return 0, err
	}
	return d.Node.BackendNodeID, nil
}
