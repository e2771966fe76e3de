package driver

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/doctext"
)

// Documents (issue 19 part 4): an editor that draws its text in its own
// structure is read as a person reads it (select all, copy, the
// clipboard's text and HTML) and written with the hand's keys at a place
// found by its words. Nothing of the page's DOM is set: the caret is put
// with a selection in our isolated world (a rich-text editor follows it)
// or with clicks (CodeMirror 5), and the text is typed.

// In-page functions of the document calls, run in our isolated world.
var (
	//go:embed js/doc_editor.js
	jsDocEditor string
	//go:embed js/doc_state.js
	jsDocState string
	//go:embed js/doc_focus.js
	jsDocFocus string
	//go:embed js/doc_select.js
	jsDocSelect string
	//go:embed js/doc_release.js
	jsDocRelease string
	//go:embed js/doc_place.js
	jsDocPlace string
	//go:embed js/doc_view.js
	jsDocView string
)

// docEditorState is what js/doc_state.js says of an editor.
type docEditorState struct {
	Kind     string `json:"kind"`
	ReadOnly bool   `json:"read_only"`
	Name     string `json:"name"`
	Focused  bool   `json:"focused"`
	Empty    bool   `json:"empty"`
}

// docEd is the editor a document call works on.
type docEd struct {
	el *element
	st docEditorState
}

func (d *docEd) name() string { return d.st.Kind + " " + d.st.Name }

// docEditor finds the editor: at or in the element target names, else
// the focused editor, else the largest one shown. It is the one place
// that says which editor a page's document is (the application table of
// issue 19 part 1 can feed it a selector as target).
func (s *Session) docEditor(ctx context.Context, t *tab, target string) (*docEd, error) {
	var on *element
	if strings.TrimSpace(target) != "" {
		el, err := s.find(ctx, t, target, defaultActTimeout)
		if err != nil {
			return nil, err
		}
		on = el
	}
	node, err := t.worldNode(ctx, on, jsDocEditor)
	if err != nil {
		return nil, err
	}
	if node == 0 {
		if on != nil {
			return nil, calls.Errorf(calls.ErrNoMatch, "name the editing area itself (css=.ql-editor, css=.ProseMirror, css=.CodeMirror)", "%s holds no document editor", target)
		}
		return nil, calls.Errorf(calls.ErrNoMatch, "open the document first, or name its editor with --editor", "no document editor on the page (no contenteditable area, ProseMirror, Quill or CodeMirror editor)")
	}
	el := &element{tab: t, sess: t.sess, frame: t.mainFrame(), node: node, what: "the document editor", line: "the document editor"}
	d := &docEd{el: el}
	if err := el.callOn(ctx, jsDocState, &d.st); err != nil {
		return nil, err
	}
	return d, nil
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
	defer cdp.Call(context.WithoutCancel(ctx), t.sess, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: objectGroup})
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
	d, err := s.docEditor(ctx, t, req.Editor)
	if err != nil {
		return nil, err
	}
	text, html, err := s.readDoc(ctx, t, d)
	if err != nil {
		return nil, err
	}
	info, err := s.pageInfo(ctx, t)
	if err != nil {
		return nil, err
	}
	doc := &calls.Doc{URL: info.URL, Title: info.Title, Editor: d.name(), Text: doctext.Clean(text), Lines: doctext.LineCount(text)}
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

// readDoc selects all of the editor, copies it and releases the
// selection, whatever the copy did.
func (s *Session) readDoc(ctx context.Context, t *tab, d *docEd) (text, html string, err error) {
	if d.st.Empty {
		return "", "", nil // a copy of nothing leaves the clipboard as it was
	}
	focused := false
	if !d.st.ReadOnly || d.st.Kind == "codemirror" {
		if err := d.el.callOn(ctx, jsDocFocus, &focused); err != nil {
			return "", "", err
		}
	}
	if focused {
		err = pressKeys(ctx, t, "Control+a")
	} else {
		// An editor that takes no focus (read-only) is selected as a
		// drag over it would select it.
		err = d.el.callOn(ctx, jsDocSelect, nil)
	}
	if err != nil {
		return "", "", err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		var done bool
		if d.el.callOn(rctx, jsDocRelease, &done) == nil && !done {
			_ = pressKeys(rctx, t, "ArrowLeft")
		}
	}()
	return s.copySelection(ctx)
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
	d, err := s.docEditor(ctx, t, req.Editor)
	if err != nil {
		return nil, err
	}
	if d.st.ReadOnly {
		return nil, calls.Errorf(calls.ErrNotInteractable, "the document is open for reading only: open it for editing (an Edit button, or your rights on it)", "the editor (%s) is read-only", d.name())
	}
	before, _, err := s.readDoc(ctx, t, d)
	if err != nil {
		return nil, err
	}
	before = doctext.Clean(before)
	// Where, in the read text: one place, or nothing is typed.
	var at []calls.DocMatch
	var want string
	switch mode {
	case "after":
		at = doctext.Find(before, words)
	case "replace":
		at = doctext.Lines(before, words)
	}
	if mode != "end" {
		what := fmt.Sprintf("%q", words)
		switch {
		case len(at) == 0 && mode == "replace":
			return nil, calls.Errorf(calls.ErrNoMatch, "give a whole line as the document has it ("+calls.Cmd("doc find")+" shows it)", "no line of the document is %s", what)
		case len(at) == 0:
			return nil, calls.Errorf(calls.ErrNoMatch, calls.Cmd("doc read")+" shows the document's words", "the document does not hold %s", what)
		case len(at) > 1:
			return nil, calls.Errorf(calls.ErrAmbiguous, "give more words, so that they name one place", "the document holds %s %d times: %s; nothing was typed", what, len(at), doctext.PlaceDesc(at))
		}
		i, j, ok := doctext.Span(before, words, mode)
		if !ok {
			return nil, calls.Errorf(calls.ErrNoMatch, calls.Cmd("doc read")+" shows the document's words", "the document does not hold %q as one run of text", words)
		}
		if mode == "after" {
			want = before[:j] + req.Text + before[j:]
		} else {
			want = before[:i] + req.Text + before[j:]
		}
	} else {
		want = before + "\n" + req.Text
	}
	line := 0
	if len(at) == 1 {
		line = at[0].Line
	}
	if req.Secret != "" {
		s.register(req.Secret, req.Text) // before the first key (registry.go)
	}
	if err := s.placeCaret(ctx, t, d, mode, words, before, line); err != nil {
		return nil, err
	}
	err = s.withoutSubmits(ctx, t, "typing into the document", func() error {
		if mode == "end" {
			if err := pressKeys(ctx, t, "Enter"); err != nil {
				return err
			}
		}
		return s.typeDoc(ctx, t, d, req)
	})
	if err == nil {
		// An editor may take typed text in a little later (CodeMirror 6
		// reads the DOM's changes on its own clock): a read-back's
		// select-all before then would be typed over.
		err = t.drawn(ctx)
	}
	if err != nil {
		return nil, err
	}
	if req.Secret != "" {
		s.markSecret(d.el, req.Secret)
	}
	after, _, err := s.readDoc(ctx, t, d)
	if err != nil {
		return nil, err
	}
	after = doctext.Clean(after)
	if doctext.Shape(after) != doctext.Shape(want) {
		shown := "what the document holds now: waymark doc read"
		if req.Secret == "" {
			if ms := doctext.Find(after, firstLine(strings.TrimSpace(req.Text))); len(ms) > 0 {
				shown = "it is at " + doctext.PlaceDesc(ms) + "; undo with Control+Z, or check with waymark doc read"
			}
		}
		return nil, calls.Errorf(calls.ErrNotInteractable, shown, "the text did not land as asked %s: the editor changed it (a list carried on, quotes made curly, a shortcut) or put it elsewhere", doctext.Where(mode, words))
	}
	res := &calls.DocInserted{Editor: d.name(), Where: doctext.Where(mode, words), Lines: doctext.LineCount(after)}
	if req.Secret == "" {
		res.Text = req.Text
	}
	res.Line = doctext.LineAt(mode, before, words)
	return res, nil
}
