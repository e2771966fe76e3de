package build

import (
	"bytes"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/secret"
)

func buildRecording(t *testing.T, name string) *outline.Node {
	t.Helper()
	rec := loadRecording(t, name)
	root, err := Outline(rec.Snapshot, Options{Ref: testRef, Viewport: rec.Viewport})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func find(root *outline.Node, role, name string) *outline.Node {
	var found *outline.Node
	root.Walk(func(n *outline.Node, _ int) bool {
		if found == nil && n.Role == role && n.Name == name {
			found = n
		}
		return found == nil
	})
	return found
}

// TestFrameBoxes checks that the boxes of a same-process iframe's content are
// in the top document's space: the iframe is at (100, 300) with a 5px border,
// and the button at (10, 20) in it.
func TestFrameBoxes(t *testing.T) {
	root := buildRecording(t, "frame")
	btn := find(root, "button", "Card")
	if btn == nil {
		t.Fatal("no button Card")
	}
	if want := (outline.Rect{X: 115, Y: 325, W: 80, H: 30}); btn.Box != want {
		t.Errorf("button box = %+v, want %+v", btn.Box, want)
	}
	ifr := find(root, "iframe", "payment")
	if ifr == nil || len(ifr.Children) == 0 {
		t.Fatalf("iframe has no children: %+v", ifr)
	}
	ifr.Offset(10, -5)
	if want := (outline.Rect{X: 125, Y: 320, W: 80, H: 30}); btn.Box != want {
		t.Errorf("after Offset, button box = %+v, want %+v", btn.Box, want)
	}
}

// TestNoPasswordValue checks that a password never leaves Outline.
func TestNoPasswordValue(t *testing.T) {
	root := buildRecording(t, "form")
	pw := find(root, "textbox", "Password")
	if pw == nil || pw.Value != secret.Masked {
		t.Fatalf("password node = %+v", pw)
	}
	var buf bytes.Buffer
	if _, err := outline.Render(&buf, root, outline.RenderOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "hunter2") {
		t.Error("the password is in the output")
	}
}

// TestHidden checks that hidden content is left out and content made visible
// inside a hidden parent is kept.
func TestHidden(t *testing.T) {
	root := buildRecording(t, "content")
	var buf bytes.Buffer
	if _, err := outline.Render(&buf, root, outline.RenderOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, s := range []string{"hidden attr", "aria hidden", "no link", "none", "In template", "noscript", "invisible", "Hidden until open"} {
		if strings.Contains(out, s) {
			t.Errorf("output has hidden %q", s)
		}
	}
	for _, s := range []string{"but this", "Shown.", `link "zero"`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}

// TestStates checks states and values read from the snapshot.
func TestStates(t *testing.T) {
	root := buildRecording(t, "form")
	for _, c := range []struct {
		role, name string
		check      func(*outline.Node) bool
	}{
		{"checkbox", "Subscribe", func(n *outline.Node) bool { return n.Checked == "true" }},
		{"checkbox", "I accept the terms", func(n *outline.Node) bool { return n.Checked == "false" }},
		{"checkbox", "Mixed", func(n *outline.Node) bool { return n.Checked == "mixed" }},
		{"combobox", "Country", func(n *outline.Node) bool { return n.Value == "UK" }},
		{"textbox", "Message", func(n *outline.Node) bool { return n.Value == "Hello there" }},
		{"textbox", "Email", func(n *outline.Node) bool {
			return n.Required && n.Value == "ann@example.com" && n.Attrs["id"] == "email"
		}},
		{"textbox", "Gift note", func(n *outline.Node) bool { return n.Disabled }},
		{"button", "Pay now", func(n *outline.Node) bool { return n.Disabled && n.Ref != "" }},
		{"textbox", "Phone number", func(n *outline.Node) bool { return n.Attrs["data-testid"] == "phone" }},
		{"switch", "Dark mode", func(n *outline.Node) bool { return n.Checked == "true" }},
	} {
		n := find(root, c.role, c.name)
		if n == nil {
			t.Errorf("no %s %q", c.role, c.name)
			continue
		}
		if !c.check(n) {
			t.Errorf("%s %q: wrong state %+v", c.role, c.name, n)
		}
	}
	if find(root, "textbox", "Invisible") != nil {
		t.Error("display:none input is in the tree")
	}
}

// TestViewportSummary checks the summary of lines below the viewport on the
// big page.
func TestViewportSummary(t *testing.T) {
	rec := loadRecording(t, "big")
	root, err := Outline(rec.Snapshot, Options{Ref: testRef, Viewport: rec.Viewport})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := outline.Render(&buf, root, outline.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	last := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
	if !strings.HasPrefix(last, "(") || !strings.Contains(last, "more lines below: ") || !strings.Contains(last, `heading "Help"`) {
		t.Errorf("last line = %q", last)
	}
	if n > 200 {
		t.Errorf("viewport render has %d lines", n)
	}
	if !strings.Contains(out, `- heading "Orders" [level=1]`) {
		t.Errorf("no heading Orders on screen:\n%s", out)
	}
}
