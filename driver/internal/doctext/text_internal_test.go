package doctext

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

func TestDocFind(t *testing.T) {
	text := "Title\n\nDear Ann, the numbers are in.\n\nThe NUMBERS are good. numbers!\nשלום numbers"
	got := Find(text, "numbers")
	want := []calls.DocMatch{
		{Line: 3, Paragraph: 2, Column: 15, Context: "Dear Ann, the numbers are in."},
		{Line: 5, Paragraph: 3, Column: 5, Context: "The NUMBERS are good. numbers!"},
		{Line: 5, Paragraph: 3, Column: 23, Context: "The NUMBERS are good. numbers!"},
		{Line: 6, Paragraph: 4, Column: 6, Context: "שלום numbers"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Find (-want +got):\n%s", d)
	}
	if got := Find(text, "  "); got != nil {
		t.Errorf("blank words found %v", got)
	}
	if got := Lines(text, " Dear Ann, the numbers are in. "); len(got) != 1 || got[0].Line != 3 {
		t.Errorf("Lines %v", got)
	}
}

func TestDocShapeAndSpan(t *testing.T) {
	if Shape("a\n\n\nb \r\n\u00a0\nc\n") != Shape("a\nb\nc") {
		t.Error("empty lines and trailing spaces should not count")
	}
	i, j, ok := Span("One\n  Costs fell  \nTwo", "Costs fell", "replace")
	if !ok || i != 6 || j != 16 {
		t.Errorf("replace span %d %d %v", i, j, ok)
	}
	i, j, ok = Span("Dear ANN, hi", "dear ann,", "after")
	if !ok || i != 0 || j != 9 {
		t.Errorf("after span %d %d %v", i, j, ok)
	}
	if _, _, ok := Span("Costs fell by 3", "Costs fell", "replace"); ok {
		t.Error("a replace matched part of a line")
	}
}

func TestDocInsertMode(t *testing.T) {
	long := make([]rune, calls.MaxDocReplace+1)
	for i := range long {
		long[i] = 'x'
	}
	for _, c := range []struct {
		req  calls.DocInsertRequest
		mode string
	}{
		{calls.DocInsertRequest{Text: "x", After: "a"}, "after"},
		{calls.DocInsertRequest{Text: "x", Replace: "a"}, "replace"},
		{calls.DocInsertRequest{Text: "x", End: true}, "end"},
		{calls.DocInsertRequest{Text: "x"}, ""},
		{calls.DocInsertRequest{Text: "x", After: "a", End: true}, ""},
		{calls.DocInsertRequest{After: "a"}, ""},
		{calls.DocInsertRequest{Text: string(long), Replace: "a"}, ""},
		{calls.DocInsertRequest{Text: "x", Replace: string(long)}, ""},
		{calls.DocInsertRequest{Text: "x", Replace: "a\nb"}, ""},
	} {
		mode, _, err := InsertMode(c.req)
		if mode != c.mode && c.mode != "" || (c.mode == "") != (err != nil) {
			t.Errorf("%+v: %q %v", c.req, mode, err)
		}
	}
}

func TestDrawnAt(t *testing.T) {
	doc := []string{"# A", "", "x", "", "# B", "", "x", "y"}
	if a, b, in, ok := DrawnAt(doc, []string{"", "x", "y"}, 6); !ok || !in || a != 5 || b != 8 {
		t.Errorf("DrawnAt = %d %d %v %v", a, b, in, ok)
	}
	// Two runs apart: the caret's line at the top, the view further down.
	if a, b, in, ok := DrawnAt(doc, []string{"# A", "# B", "", "x", "y"}, 2); !ok || in || a != 4 || b != 8 {
		t.Errorf("DrawnAt of two runs = %d %d %v %v", a, b, in, ok)
	}
	if _, _, _, ok := DrawnAt(doc, []string{"z"}, 0); ok {
		t.Error("lines not in the document placed")
	}
}
