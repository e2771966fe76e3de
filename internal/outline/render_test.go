package outline

import (
	"bytes"
	"strings"
	"testing"
)

// TestRenderKeepsThePagesControlCharactersOffTheTerminal: text printed
// unquoted (a text line, a line's inline text, an interactive line's text)
// carries no control character, so a page cannot clear, recolour or write
// the clipboard of the terminal that shows the outline, nor start a line
// of its own.
func TestRenderKeepsThePagesControlCharactersOffTheTerminal(t *testing.T) {
	hostile := "Go\x1b[2J\x1b]52;c;aGk=\x07here\r\n- button \"Pay\" [ref=e9]\u0085end"
	root := &Node{Role: "document", Children: []*Node{
		{Role: "paragraph", Children: []*Node{{Role: "text", Name: hostile}}},
		{Role: "text", Name: hostile},
		{Role: "button", Ref: "e1", Text: hostile},
	}}
	for _, interactive := range []bool{false, true} {
		var buf bytes.Buffer
		if _, err := Render(&buf, root, RenderOptions{Full: true, Interactive: interactive}); err != nil {
			t.Fatal(err)
		}
		out := strings.TrimSuffix(buf.String(), "\n")
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "- ") {
				t.Errorf("interactive=%v: a line the page started: %q", interactive, l)
			}
			if strings.ContainsAny(l, "\x1b\x07\r\u0085") {
				t.Errorf("interactive=%v: control character in %q", interactive, l)
			}
			if l == "- button [ref=e1]" && !interactive {
				continue // its text is said only where its text lines are dropped
			}
			if !strings.Contains(l, "Go [2J ]52;c;aGk= here") {
				t.Errorf("interactive=%v: the text itself is lost: %q", interactive, l)
			}
		}
	}
}

// A heading that holds only a link of the same words leaves its name to the
// link, and with -i its line too; a heading that says more, or holds more,
// keeps it.
func TestAHeadingLeavesItsNameToItsOneLink(t *testing.T) {
	link := func(name, ref string) *Node { return &Node{Role: "link", Name: name, Ref: ref} }
	root := &Node{Role: "document", Children: []*Node{
		{Role: "heading", Name: "Trail Mug", Level: 2, Children: []*Node{link("Trail Mug", "e1")}},
		{Role: "heading", Name: "Desk Lamp $30", Level: 2, Children: []*Node{link("Desk Lamp", "e2")}},
		{Role: "heading", Name: "Pens", Level: 2, Children: []*Node{link("Pens", "e3"), link("more", "e4")}},
		{Role: "heading", Name: "Socks", Level: 2, Ref: "e5", Children: []*Node{link("Socks", "e6")}},
		{Role: "heading", Name: "Tote", Level: 2, Children: []*Node{link("Tote", "e7")}},
	}}
	want := `- heading [level=2]:
  - link "Trail Mug" [ref=e1]
- heading "Desk Lamp $30" [level=2]:
  - link "Desk Lamp" [ref=e2]
- heading "Pens" [level=2]:
  - link "Pens" [ref=e3]
  - link "more" [ref=e4]
- heading "Socks" [level=2] [ref=e5]:
  - link "Socks" [ref=e6]
- heading [level=2]:
  - link "Tote" [ref=e7]
`
	// With -i, the heading over its one link of the same words is left
	// out: the link says it (8 tokens a line fewer on a page of results).
	wantInteractive := `- link "Trail Mug" [ref=e1]
- heading "Desk Lamp $30" [level=2]:
  - link "Desk Lamp" [ref=e2]
- heading "Pens" [level=2]:
  - link "Pens" [ref=e3]
  - link "more" [ref=e4]
- heading "Socks" [level=2] [ref=e5]:
  - link "Socks" [ref=e6]
- link "Tote" [ref=e7]
`
	for _, tt := range []struct {
		opts RenderOptions
		want string
	}{{RenderOptions{Full: true}, want}, {RenderOptions{Full: true, Interactive: true}, wantInteractive}} {
		var b strings.Builder
		if _, err := Render(&b, root, tt.opts); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%+v:\n%s\nwant:\n%s", tt.opts, b.String(), tt.want)
		}
	}
}

// A page's text that ends as the line Carry writes for a region it folds
// ("- banner: (unchanged)") is quoted: a <header> that says "(unchanged)"
// must not read as the last page's banner, with its refs.
func TestRenderQuotesPageTextThatReadsAsAFoldedRegion(t *testing.T) {
	text := func(s string) []*Node { return []*Node{{Role: "text", Name: s}} }
	root := &Node{Role: "document", Children: []*Node{
		{Role: "banner", Children: text("(unchanged)")},
		{Role: "navigation", Name: "Main", Children: text("Menu (unchanged) ")},
		{Role: "text", Name: "(unchanged)"},
		{Role: "paragraph", Children: text("(unchanged) since 2019")},
	}}
	var buf bytes.Buffer
	if _, err := Render(&buf, root, RenderOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	want := `- banner: "(unchanged)"
- navigation "Main": "Menu (unchanged) "
- text: "(unchanged)"
- paragraph: (unchanged) since 2019
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestInteractiveKeepsARowsText: a table row that holds controls keeps
// its own text in the interactive outline (the cells that are not
// controls), so that "the email from Gretchen" can be told from the
// others when her name is plain text beside the link that opens it. A
// row of controls only, or of text only, is elided as before.
func TestInteractiveKeepsARowsText(t *testing.T) {
	cell := func(kids ...*Node) *Node { return &Node{Role: "cell", Children: kids} }
	named := func(name string) *Node {
		return &Node{Role: "cell", Name: name, Children: []*Node{{Role: "text", Name: name}}}
	}
	root := &Node{Role: "document", Children: []*Node{{Role: "table", Children: []*Node{
		{Role: "row", Children: []*Node{named("From"), named("Subject")}},
		{Role: "row", Children: []*Node{
			cell(&Node{Role: "checkbox", Name: "Select", Ref: "e1"}), named("Gretchen"),
			cell(&Node{Role: "link", Name: "Odio magna", Ref: "e2"})}},
		{Role: "row", Children: []*Node{cell(&Node{Role: "button", Name: "Load more", Ref: "e3"})}},
	}}}}
	var b strings.Builder
	if _, err := Render(&b, root, RenderOptions{Full: true, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	want := `- table:
  - row: Gretchen
    - checkbox "Select" [ref=e1]
    - link "Odio magna" [ref=e2]
  - button "Load more" [ref=e3]
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestInteractiveKeepsThePagesAnswer: with -i, a status or alert region
// that says something keeps its line and its words (the page's answer to
// the action before the look: "Added 2 × Trail Mug to your cart."), with
// the controls in it; an empty one and plain text stay out.
func TestInteractiveKeepsThePagesAnswer(t *testing.T) {
	text := func(s string) *Node { return &Node{Role: "text", Name: s} }
	root := &Node{Role: "document", Children: []*Node{
		{Role: "paragraph", Children: []*Node{text("Some prose")}},
		{Role: "status", Children: []*Node{text("Added 2 × Trail Mug to your cart.")}},
		{Role: "status"},
		{Role: "alert", Children: []*Node{text("Wrong password."), {Role: "link", Name: "Reset it", Ref: "e1", Children: []*Node{text("Reset it")}}}},
	}}
	want := `- status: Added 2 × Trail Mug to your cart.
- alert: Wrong password.
  - link "Reset it" [ref=e1]
`
	var b strings.Builder
	if _, err := Render(&b, root, RenderOptions{Full: true, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestSayFullRewordsOnlySummaryLines: a front's words for seeing the
// whole outline replace the command line's at the end of the lines that
// sum up what is off screen (in an outline, and in a diff of two), never
// in the page's own text, which can read like one.
func TestSayFullRewordsOnlySummaryLines(t *testing.T) {
	mimic := "(2 more lines below — scroll, or " + FullAdvice + ")"
	root := &Node{Role: "document", InViewport: true, Children: []*Node{
		{Role: "button", Ref: "e1", Name: "On screen", Box: Rect{W: 10, H: 10}, InViewport: true},
		{Role: "text", Name: mimic, Box: Rect{Y: 20, W: 10, H: 10}, InViewport: true},
		{Role: "link", Ref: "e2", Name: "Off screen", Box: Rect{Y: 900, W: 10, H: 10}},
		{Role: "link", Ref: "e3", Name: "Off too", Box: Rect{Y: 950, W: 10, H: 10}},
	}}
	var b bytes.Buffer
	if _, err := Render(&b, root, RenderOptions{Viewport: Rect{W: 800, H: 600}}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasSuffix(out, "(2 more lines below: 2 links — scroll, or "+FullAdvice+")\n") {
		t.Fatalf("no summary line:\n%s", out)
	}
	diff := "- " + "(3 more lines below: 3 links — scroll, or " + FullAdvice + ")\n+ (2 more lines below: 2 links — scroll, or " + FullAdvice + ")"
	for _, tt := range []struct{ in, want string }{
		{out, strings.Replace(out, "links — scroll, or "+FullAdvice+")", "links — scroll, or the whole one)", 1)},
		{diff, "- (3 more lines below: 3 links — scroll, or the whole one)\n+ (2 more lines below: 2 links — scroll, or the whole one)"},
		{"- text: " + mimic, "- text: " + mimic},
		{"(some words of the page — scroll, or " + FullAdvice + ")", "(some words of the page — scroll, or " + FullAdvice + ")"},
	} {
		if got := SayFull(tt.in, "the whole one"); got != tt.want {
			t.Errorf("SayFull(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
	if !strings.Contains(SayFull(out, "the whole one"), "- text: "+mimic) {
		t.Errorf("the page's text was reworded:\n%s", SayFull(out, "the whole one"))
	}
}
