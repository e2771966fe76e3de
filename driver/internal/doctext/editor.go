package doctext

import (
	"context"
	_ "embed"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
)

// Documents (issue 19 part 4): an editor that draws its text in its own
// structure is read as a person reads it (select all, copy, the
// clipboard's text and HTML) and written with the hand's keys at a place
// found by its words. Nothing of the page's DOM is set: the caret is put
// with a selection in waymark's isolated world (a rich-text editor
// follows it) or with clicks (CodeMirror 5), and the text is typed.

// In-page functions of the document calls, run in waymark's isolated
// world.
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

// editorState is what js/doc_state.js says of an editor.
type editorState struct {
	Kind     string `json:"kind"`
	ReadOnly bool   `json:"read_only"`
	Name     string `json:"name"`
	Focused  bool   `json:"focused"`
	Empty    bool   `json:"empty"`
}

// Editor is the editor a document call works on.
type Editor struct {
	el elem.Element
	st editorState
}

// Name says which editor it is ("quill the editor's label").
func (d *Editor) Name() string { return d.st.Kind + " " + d.st.Name }

// ReadOnly says the editor takes no typing.
func (d *Editor) ReadOnly() bool { return d.st.ReadOnly }

// Element is the editor's element (for the core to mark a secret in).
func (d *Editor) Element() elem.Element { return d.el }

// FindEditor finds the editor: at or in the element target names, else
// the focused editor, else the largest one shown. It is the one place
// that says which editor a page's document is (the application table of
// issue 19 part 1 can feed it a selector as target).
func FindEditor(ctx context.Context, v View, target string) (*Editor, error) {
	var on elem.Element
	if strings.TrimSpace(target) != "" {
		el, err := v.Find(ctx, target, elem.DefaultTimeout, nil)
		if err != nil {
			return nil, err
		}
		on = el
	}
	el, err := v.WorldNode(ctx, on, jsDocEditor)
	if err != nil {
		return nil, err
	}
	if el == nil {
		if on != nil {
			return nil, calls.Errorf(calls.ErrNoMatch, "name the editing area itself (css=.ql-editor, css=.ProseMirror, css=.CodeMirror)", "%s holds no document editor", target)
		}
		return nil, calls.Errorf(calls.ErrNoMatch, "open the document first, or name its editor with --editor", "no document editor on the page (no contenteditable area, ProseMirror, Quill or CodeMirror editor)")
	}
	d := &Editor{el: el.Named("the document editor")}
	if err := el.CallOn(ctx, jsDocState, &d.st); err != nil {
		return nil, err
	}
	return d, nil
}

// Read selects all of the editor, copies it and releases the selection,
// whatever the copy did: the clipboard's text and HTML.
func (d *Editor) Read(ctx context.Context, v View) (text, html string, err error) {
	if d.st.Empty {
		return "", "", nil // a copy of nothing leaves the clipboard as it was
	}
	focused := false
	if !d.st.ReadOnly || d.st.Kind == "codemirror" {
		if err := d.el.CallOn(ctx, jsDocFocus, &focused); err != nil {
			return "", "", err
		}
	}
	if focused {
		err = v.PressKeys(ctx, "Control+a")
	} else {
		// An editor that takes no focus (read-only) is selected as a
		// drag over it would select it.
		err = d.el.CallOn(ctx, jsDocSelect, nil)
	}
	if err != nil {
		return "", "", err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		var done bool
		if d.el.CallOn(rctx, jsDocRelease, &done) == nil && !done {
			_ = v.PressKeys(rctx, "ArrowLeft")
		}
	}()
	return v.Copy(ctx)
}
