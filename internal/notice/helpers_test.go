package notice

import (
	"net/http"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/outline"
)

// Builders of hand-made outline trees.

func doc(title string, kids ...*outline.Node) *outline.Node {
	return &outline.Node{Role: "document", Name: title, Children: kids}
}

func el(role, name string, kids ...*outline.Node) *outline.Node {
	return &outline.Node{Role: role, Name: name, Children: kids}
}

func txt(s string) *outline.Node { return &outline.Node{Role: "text", Name: s} }

func heading(s string) *outline.Node { return &outline.Node{Role: "heading", Name: s, Level: 2} }

func btn(name, ref string) *outline.Node { return &outline.Node{Role: "button", Name: name, Ref: ref} }

func link(name, ref string) *outline.Node { return &outline.Node{Role: "link", Name: name, Ref: ref} }

func textbox(name, ref string) *outline.Node {
	return &outline.Node{Role: "textbox", Name: name, Ref: ref, Attrs: map[string]string{"type": "text"}}
}

func password(name, ref string) *outline.Node {
	return &outline.Node{Role: "textbox", Name: name, Ref: ref, Attrs: map[string]string{"type": "password"}}
}

func iframe(title, ref string, attrs map[string]string, kids ...*outline.Node) *outline.Node {
	if attrs == nil {
		attrs = map[string]string{}
	}
	attrs["title"] = title
	return &outline.Node{Role: "iframe", Name: title, Ref: ref, Attrs: attrs, Children: kids}
}

// boxed gives n a layout box.
func boxed(n *outline.Node, w, h float64) *outline.Node {
	n.Box = outline.Rect{X: 10, Y: 10, W: w, H: h}
	return n
}

func headers(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// article is n paragraphs of ordinary text.
func article(n int) []*outline.Node {
	var out []*outline.Node
	for i := range n {
		out = append(out, el("paragraph", "", txt(strings.Repeat("Ordinary prose about the topic of the day. ", 8)+string(rune('a'+i%26)))))
	}
	return out
}

// kinds returns the kinds of ns.
func kinds(ns []Notice) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Kind)
	}
	return out
}

// only returns the notices of one kind.
func only(ns []Notice, kind string) []Notice {
	var out []Notice
	for _, n := range ns {
		if n.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}

// checkMessage checks the invariant-3 shape of every message: one line.
func checkMessage(t *testing.T, ns []Notice) {
	t.Helper()
	for _, n := range ns {
		if strings.ContainsAny(n.Message, "\n\r") {
			t.Errorf("message spans lines: %q", n.Message)
		}
	}
}
