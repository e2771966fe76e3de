package doctext

import (
	"context"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Insert is one document insert, planned on the text as it was read
// before: where the text goes, and what the document should read after.
// The core runs it in three steps around its own promises: Plan, then
// (the secret registered) Type, then (the editor marked) Check.
type Insert struct {
	d           *Editor
	req         calls.DocInsertRequest
	mode, words string
	before      string // the document's text before, cleaned
	want        string // what it should read after
	line        int    // the line of the one place, from 1; 0 for the end
}

// Plan reads the editor and finds the one place req names (after words,
// over a line, at the end); several places, or none, type nothing.
func Plan(ctx context.Context, v View, d *Editor, req calls.DocInsertRequest, mode, words string) (*Insert, error) {
	if d.st.ReadOnly {
		return nil, calls.Errorf(calls.ErrNotInteractable, "the document is open for reading only: open it for editing (an Edit button, or your rights on it)", "the editor (%s) is read-only", d.Name())
	}
	before, _, err := d.Read(ctx, v)
	if err != nil {
		return nil, err
	}
	before = Clean(before)
	in := &Insert{d: d, req: req, mode: mode, words: words, before: before}
	// Where, in the read text: one place, or nothing is typed.
	var at []calls.DocMatch
	switch mode {
	case "after":
		at = Find(before, words)
	case "replace":
		at = Lines(before, words)
	}
	if mode != "end" {
		what := fmt.Sprintf("%q", words)
		switch {
		case len(at) == 0 && mode == "replace":
			return nil, calls.Errorf(calls.ErrNoMatch, "give a whole line as the document has it ("+calls.Cmd("doc find")+" shows it)", "no line of the document is %s", what)
		case len(at) == 0:
			return nil, calls.Errorf(calls.ErrNoMatch, calls.Cmd("doc read")+" shows the document's words", "the document does not hold %s", what)
		case len(at) > 1:
			return nil, calls.Errorf(calls.ErrAmbiguous, "give more words, so that they name one place", "the document holds %s %d times: %s; nothing was typed", what, len(at), PlaceDesc(at))
		}
		i, j, ok := Span(before, words, mode)
		if !ok {
			return nil, calls.Errorf(calls.ErrNoMatch, calls.Cmd("doc read")+" shows the document's words", "the document does not hold %q as one run of text", words)
		}
		if mode == "after" {
			in.want = before[:j] + req.Text + before[j:]
		} else {
			in.want = before[:i] + req.Text + before[j:]
		}
	} else {
		in.want = before + "\n" + req.Text
	}
	if len(at) == 1 {
		in.line = at[0].Line
	}
	return in, nil
}

// Type puts the caret at the place and types the text, with the tab's
// form submissions held, then waits for the editor to take it in.
func (in *Insert) Type(ctx context.Context, v View) error {
	if err := placeCaret(ctx, v, in.d, in.mode, in.words, in.before, in.line); err != nil {
		return err
	}
	err := v.WithoutSubmits(ctx, "typing into the document", func() error {
		if in.mode == "end" {
			if err := v.PressKeys(ctx, "Enter"); err != nil {
				return err
			}
		}
		return typeDoc(ctx, v, in.req)
	})
	if err != nil {
		return err
	}
	// An editor may take typed text in a little later (CodeMirror 6
	// reads the DOM's changes on its own clock): a read-back's
	// select-all before then would be typed over.
	return v.Drawn(ctx)
}

// Check reads the document back and checks the text landed as planned.
func (in *Insert) Check(ctx context.Context, v View) (*calls.DocInserted, error) {
	after, _, err := in.d.Read(ctx, v)
	if err != nil {
		return nil, err
	}
	after = Clean(after)
	req := in.req
	if Shape(after) != Shape(in.want) {
		shown := "what the document holds now: waymark doc read"
		if req.Secret == "" {
			if ms := Find(after, firstLine(strings.TrimSpace(req.Text))); len(ms) > 0 {
				shown = "it is at " + PlaceDesc(ms) + "; undo with Control+Z, or check with waymark doc read"
			}
		}
		return nil, calls.Errorf(calls.ErrNotInteractable, shown, "the text did not land as asked %s: the editor changed it (a list carried on, quotes made curly, a shortcut) or put it elsewhere", Where(in.mode, in.words))
	}
	res := &calls.DocInserted{Editor: in.d.Name(), Where: Where(in.mode, in.words), Lines: LineCount(after)}
	if req.Secret == "" {
		res.Text = req.Text
	}
	res.Line = LineAt(in.mode, in.before, in.words)
	return res, nil
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
