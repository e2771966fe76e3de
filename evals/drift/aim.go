package drift

import "strings"

// Aim is how the recorder's hand finds the target on the original page:
// a person reads the outline and picks the line of the control's role
// and words (the Nth such line), and a Playwright codegen session clicks
// the element Path leads to. It describes the original page only; no
// variant is looked at through it.
type Aim struct {
	Role string `json:"role"` // button, link, checkbox
	Name string `json:"name"` // the control's words
	Nth  int    `json:"nth"`  // among the controls of its role and words, in document order
	// Path leads from the body to the target: child i of an element, of
	// a shadow root, or of an iframe's body.
	Path []Step `json:"path"`
	// Frame is the CSS of the iframe the target is in ("" none).
	Frame string `json:"frame,omitempty"`
	// Scope, when the target sits in a row, is the row's role (row,
	// listitem; "" for a card laid as a div) and key.
	ScopeRole string `json:"scope_role,omitempty"`
	ScopeKey  string `json:"scope_key,omitempty"`
}

// Step is one step of an Aim's path.
type Step struct {
	Kind string `json:"k"` // child, shadow, frame
	I    int    `json:"i"`
}

func roleOf(e *El) string {
	switch {
	case e.Tag == "a":
		return "link"
	case e.Tag == "input" && e.Attr("type") == "checkbox":
		return "checkbox"
	}
	return "button"
}

// AimAt describes the target of body.
func AimAt(body *El) Aim {
	t, _ := targetOf(body)
	a := Aim{Role: roleOf(t), Name: strings.TrimSpace(wordsOf(body, t).Text)}
	seen := 0
	body.Walk(func(n, _ *El) bool {
		if n == t {
			a.Nth = seen
			return false
		}
		if n.Ctl != "" && roleOf(n) == a.Role && strings.EqualFold(strings.TrimSpace(wordsOf(body, n).Text), a.Name) {
			seen++
		}
		return true
	})
	// The path: body's own element is the document body's first child.
	a.Path = []Step{{Kind: "child", I: 0}}
	var walk func(n *El) bool
	walk = func(n *El) bool {
		if n == t {
			return true
		}
		for i, k := range n.Kids {
			kind := "child"
			switch {
			case n.Shadow:
				kind = "shadow"
			case n.Frame:
				kind = "frame"
				a.Frame = "iframe[title=\"" + n.Attr("title") + "\"]"
			}
			a.Path = append(a.Path, Step{Kind: kind, I: i})
			if k.Row {
				a.ScopeRole, a.ScopeKey = map[string]string{"tr": "row", "li": "listitem"}[k.Tag], k.Key
			}
			if walk(k) {
				return true
			}
			a.Path = a.Path[:len(a.Path)-1]
			if k.Row {
				a.ScopeRole, a.ScopeKey = "", ""
			}
			if n.Frame {
				a.Frame = ""
			}
		}
		return false
	}
	walk(body)
	return a
}
