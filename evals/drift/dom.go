package drift

import (
	"fmt"
	"html"
	"strings"
)

// El is one element of a generated page. A page is a tree of them, so a
// variant is the original tree changed (a class renamed, a wrapper added,
// a row removed) rather than another page written by hand, and what stays
// the same between the two is exactly what the variant did not touch.
type El struct {
	Tag   string
	Attrs [][2]string // in order; "class" and "id" are kept here too
	Text  string      // text before the children
	Kids  []*El
	// Ctl names a control for the truth: its click reaches the server as
	// this name, through a token made for each page load (the page holds
	// only the token, never the name). Empty: not counted.
	Ctl string
	// Shadow renders the children inside an open shadow root (declarative
	// shadow DOM); Frame renders them as the document of a same-origin
	// iframe.
	Shadow, Frame bool
	// Row marks a repeated unit of a list (a table row, a list item, a
	// card): the rows variants reorder and remove these among their
	// siblings. Key is what names the row to a person.
	Row bool
	Key string
	// Unit marks what an ambiguity variant duplicates when the target is
	// not in a row: a card, a form, a panel.
	Unit bool
	// Order marks a container whose children may be laid out in another
	// order without changing what the page means (a toolbar, the regions
	// of a page): a cosmetic variant may shuffle them.
	Order bool
}

// E makes an element: attrs are name, value pairs.
func E(tag string, attrs ...string) *El {
	e := &El{Tag: tag}
	for i := 0; i+1 < len(attrs); i += 2 {
		e.Attrs = append(e.Attrs, [2]string{attrs[i], attrs[i+1]})
	}
	return e
}

// T sets the element's text.
func (e *El) T(text string) *El { e.Text = text; return e }

// K appends children.
func (e *El) K(kids ...*El) *El { e.Kids = append(e.Kids, kids...); return e }

// C marks the element as the control name.
func (e *El) C(name string) *El { e.Ctl = name; return e }

// Attr returns an attribute's value.
func (e *El) Attr(name string) string {
	for _, a := range e.Attrs {
		if a[0] == name {
			return a[1]
		}
	}
	return ""
}

// Set sets an attribute, adding it when absent; an empty value removes it.
func (e *El) Set(name, value string) {
	for i, a := range e.Attrs {
		if a[0] == name {
			if value == "" {
				e.Attrs = append(e.Attrs[:i], e.Attrs[i+1:]...)
			} else {
				e.Attrs[i][1] = value
			}
			return
		}
	}
	if value != "" {
		e.Attrs = append(e.Attrs, [2]string{name, value})
	}
}

// Clone copies the tree.
func (e *El) Clone() *El {
	c := *e
	c.Attrs = append([][2]string(nil), e.Attrs...)
	c.Kids = make([]*El, len(e.Kids))
	for i, k := range e.Kids {
		c.Kids[i] = k.Clone()
	}
	return &c
}

// Walk visits the tree depth first with each element's parent; f returns
// false to skip an element's children.
func (e *El) Walk(f func(n, parent *El) bool) {
	var walk func(n, p *El)
	walk = func(n, p *El) {
		if !f(n, p) {
			return
		}
		for _, k := range n.Kids {
			walk(k, n)
		}
	}
	walk(e, nil)
}

// Find returns the first element f accepts, with its parent.
func (e *El) Find(f func(*El) bool) (found, parent *El) {
	e.Walk(func(n, p *El) bool {
		if found == nil && f(n) {
			found, parent = n, p
		}
		return found == nil
	})
	return found, parent
}

// Ctls lists the control names on the page, in document order.
func (e *El) Ctls() []string {
	var out []string
	e.Walk(func(n, _ *El) bool {
		if n.Ctl != "" {
			out = append(out, n.Ctl)
		}
		return true
	})
	return out
}

// Load is one page load's rendering: the main document, the documents of
// its frames, and the control each token stands for.
type Load struct {
	Main   string
	Frames []string
	Tokens map[string]string // token → control name
}

// voids are the elements with no end tag.
var voids = map[string]bool{"input": true, "img": true, "br": true, "hr": true, "meta": true}

// hitScript is every document's one script: a control's click tells the
// server its token, synchronously, so the press has reached the server by
// the time the click's handler returns.
const hitScript = `<script>function h(t){try{var x=new XMLHttpRequest();x.open('GET','/h/'+t,false);x.send()}catch(e){}}</script>`

// Render writes the page for one load: token makes a fresh opaque token
// for each control; frameURL is the address of the load's n-th frame.
func Render(title string, body *El, token func() string, frameURL func(n int) string) *Load {
	l := &Load{Tokens: map[string]string{}}
	var frames []string
	var render func(b *strings.Builder, e *El)
	render = func(b *strings.Builder, e *El) {
		if e.Frame {
			var fb strings.Builder
			for _, k := range e.Kids {
				render(&fb, k)
			}
			frames = append(frames, fb.String())
			fmt.Fprintf(b, `<iframe src="%s"`, frameURL(len(frames)-1))
			for _, a := range e.Attrs {
				fmt.Fprintf(b, ` %s="%s"`, a[0], html.EscapeString(a[1]))
			}
			b.WriteString(`></iframe>`)
			return
		}
		b.WriteString("<" + e.Tag)
		for _, a := range e.Attrs {
			fmt.Fprintf(b, ` %s="%s"`, a[0], html.EscapeString(a[1]))
		}
		if e.Ctl != "" {
			t := token()
			l.Tokens[t] = e.Ctl
			fmt.Fprintf(b, ` onclick="h('%s')"`, t)
		}
		b.WriteString(">")
		if voids[e.Tag] {
			return
		}
		if e.Shadow {
			b.WriteString(`<template shadowrootmode="open">`)
		}
		b.WriteString(html.EscapeString(e.Text))
		for _, k := range e.Kids {
			render(b, k)
		}
		if e.Shadow {
			b.WriteString(`</template>`)
		}
		b.WriteString("</" + e.Tag + ">")
	}
	var mb strings.Builder
	render(&mb, body)
	page := func(inner string) string {
		return "<!doctype html><html lang=en><head><meta charset=utf-8><title>" + html.EscapeString(title) + "</title>" +
			`<style>body{font:14px system-ui,sans-serif;margin:16px}button,a{margin:2px}dialog{position:static}</style>` +
			hitScript + "</head><body>" + inner + "</body></html>"
	}
	l.Main = page(mb.String())
	for _, f := range frames {
		l.Frames = append(l.Frames, page(f))
	}
	return l
}
