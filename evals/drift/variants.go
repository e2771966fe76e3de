package drift

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
)

// The kinds of variant, and what a replay must do on each.
const (
	KindOriginal     = "original"     // the page recorded on: press
	KindCosmetic     = "cosmetic"     // classes, wrappers, order, case, layout, ids: press
	KindSubstitution = "substitution" // another control in the target's place: refuse
	KindAmbiguity    = "ambiguity"    // two equal candidates: refuse
	KindRenamed      = "renamed"      // the same control under new words: refuse or heal
	KindRows         = "rows"         // the list reordered or cut: press, or refuse when the target's row is gone
)

// Expectations.
const (
	Press  = "press"
	Refuse = "refuse"
)

// Variant is one changed page of a scenario.
type Variant struct {
	Name   string // "cosmetic-2"
	Kind   string
	What   string // what changed, for people
	Body   *El
	Expect string // Press or Refuse
}

// Case is a scenario with its variants.
type Case struct {
	Scenario
	Variants []Variant
}

// Counts says how many variants of each kind a case gets.
type Counts struct{ Cosmetic, Substitution, Ambiguity, Renamed, Rows int }

// Quick is the default set: 10 variants a scenario besides the original.
var Quick = Counts{Cosmetic: 3, Substitution: 2, Ambiguity: 2, Renamed: 1, Rows: 2}

// Full is WAYMARK_EVALS=full.
var Full = Counts{Cosmetic: 12, Substitution: 2, Ambiguity: 2, Renamed: 1, Rows: 4}

// Generate returns n scenarios (every builder at least once when n is at
// least their number) with their variants, made from seed: the same seed
// gives the same pages.
func Generate(seed uint64, n int, c Counts) []Case {
	r := rand.New(rand.NewPCG(seed, 30))
	var out []Case
	for i := range n {
		b := builders[i%len(builders)]
		s := b(r)
		if i >= len(builders) {
			s.Name = fmt.Sprintf("%s-%d", s.Name, i/len(builders)+1)
		}
		cs := Case{Scenario: s}
		cs.Variants = append(cs.Variants, Variant{Name: "original", Kind: KindOriginal, What: "the page recorded on", Body: s.Body.Clone(), Expect: Press})
		for k := range c.Cosmetic {
			cs.Variants = append(cs.Variants, cosmetic(r, s, k))
		}
		for k := range c.Substitution {
			cs.Variants = append(cs.Variants, substitution(s, k))
		}
		for k := range c.Ambiguity {
			cs.Variants = append(cs.Variants, ambiguity(s, k))
		}
		for k := range c.Renamed {
			cs.Variants = append(cs.Variants, renamed(s, k))
		}
		for k := range c.Rows {
			cs.Variants = append(cs.Variants, rows(r, s, k))
		}
		out = append(out, cs)
	}
	return out
}

// cosmetics are the changes that keep every control what it was.
var cosmetics = []string{"classes", "wrappers", "order", "case", "layout", "ids"}

// cosmetic applies a set of cosmetic changes: the first variants take
// fixed sets so that the quick set covers every change; later ones draw.
func cosmetic(r *rand.Rand, s Scenario, k int) Variant {
	sets := [][]string{{"classes", "ids", "wrappers"}, {"order", "case", "layout"}, cosmetics}
	var set []string
	if k < len(sets) {
		set = sets[k]
	} else {
		set = draw(r, 2+r.IntN(3), cosmetics...)
	}
	b := s.Body.Clone()
	for _, c := range set {
		switch c {
		case "classes":
			renameClasses(r, b)
		case "wrappers":
			wrap(r, b)
		case "order":
			reorder(r, b)
		case "case":
			recase(r, b)
		case "layout":
			relayout(r, b)
		case "ids":
			regenerateIDs(r, b)
		}
	}
	return Variant{Name: fmt.Sprintf("cosmetic-%d", k+1), Kind: KindCosmetic, What: strings.Join(set, ", "), Body: b, Expect: Press}
}

func renameClasses(r *rand.Rand, b *El) {
	names := map[string]string{}
	b.Walk(func(n, _ *El) bool {
		if c := n.Attr("class"); c != "" {
			var out []string
			for _, w := range strings.Fields(c) {
				if names[w] == "" {
					names[w] = fmt.Sprintf("%s_%s", pick(r, "sc", "css", "x", w[:1]), token(r, 5))
				}
				out = append(out, names[w])
			}
			n.Set("class", strings.Join(out, " "))
		}
		return true
	})
}

// unwrappable are the parents whose children a wrapper would break.
var unwrappable = map[string]bool{"table": true, "thead": true, "tbody": true, "tr": true, "ul": true, "ol": true, "select": true, "fieldset": true}

// wrap puts the target and some other elements in one or two wrappers.
func wrap(r *rand.Rand, b *El) {
	type at struct {
		parent *El
		i      int
	}
	var spots []at
	b.Walk(func(n, _ *El) bool {
		if unwrappable[n.Tag] {
			return true
		}
		for i, k := range n.Kids {
			if k.Ctl == Target || r.IntN(4) == 0 {
				spots = append(spots, at{n, i})
			}
		}
		return true
	})
	for _, s := range spots {
		k := s.parent.Kids[s.i]
		for range 1 + r.IntN(2) {
			w := E(pick(r, "div", "span", "div"), "class", pick(r, "wrap", "inner", "box", "slot"))
			w.Kids = []*El{k}
			k = w
		}
		s.parent.Kids[s.i] = k
	}
}

func reorder(r *rand.Rand, b *El) {
	b.Walk(func(n, _ *El) bool {
		if n.Order && len(n.Kids) > 1 {
			before := slices.Clone(n.Kids)
			for slices.Equal(before, n.Kids) {
				r.Shuffle(len(n.Kids), func(i, j int) { n.Kids[i], n.Kids[j] = n.Kids[j], n.Kids[i] })
			}
		}
		return true
	})
}

// recase writes every control's and heading's words in another case.
func recase(r *rand.Rand, b *El) {
	how := pick(r, strings.ToUpper, strings.ToLower, title)
	b.Walk(func(n, _ *El) bool {
		if n.Ctl != "" || n.Tag == "label" || strings.HasPrefix(n.Tag, "h") && len(n.Tag) == 2 {
			n.Text = how(n.Text)
		}
		return true
	})
}

func title(s string) string {
	out := []rune(s)
	up := true
	for i, c := range out {
		if up {
			out[i] = unicode.ToUpper(c)
		}
		up = c == ' '
	}
	return string(out)
}

// relayout changes how the page is laid out: styles, a banner at the
// top, icons beside the controls' words.
func relayout(r *rand.Rand, b *El) {
	b.Walk(func(n, _ *El) bool {
		switch {
		case n.Tag == "div" && r.IntN(2) == 0:
			n.Set("style", pick(r, "display:flex;gap:8px;flex-wrap:wrap", "display:grid;grid-template-columns:1fr 1fr", "padding:12px 4px"))
		case n.Tag == "button" && r.IntN(2) == 0:
			n.Kids = append([]*El{E("span", "aria-hidden", "true", "class", "icon").T(pick(r, "✓ ", "→ ", "• "))}, n.Kids...)
		}
		return true
	})
	banner := E("div", "class", "banner", "role", "status").T("New: dark mode is here. ")
	b.Kids = append([]*El{banner}, b.Kids...)
}

// regenerateIDs gives every element a new id, as a framework's build
// does (":r3a:", "ember412"), keeping labels pointing at their fields.
func regenerateIDs(r *rand.Rand, b *El) {
	ids := map[string]string{}
	style := pick(r, ":r%s:", "ember%s", "mui-%s", "id-%s")
	b.Walk(func(n, _ *El) bool {
		if id := n.Attr("id"); id != "" {
			ids[id] = fmt.Sprintf(style, token(r, 4))
			n.Set("id", ids[id])
		}
		return true
	})
	b.Walk(func(n, _ *El) bool {
		for _, a := range []string{"for", "aria-labelledby"} {
			if v := n.Attr(a); ids[v] != "" {
				n.Set(a, ids[v])
			}
		}
		return true
	})
}

func token(r *rand.Rand, n int) string {
	const abc = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = abc[r.IntN(len(abc))]
	}
	return string(b)
}

// targetOf finds the target and its parent.
func targetOf(b *El) (t, parent *El) {
	return b.Find(func(n *El) bool { return n.Ctl == Target })
}

// wordsOf returns the element holding the target's words: the target, or
// the label of a field.
func wordsOf(b, t *El) *El {
	if t.Tag == "input" {
		if l, _ := b.Find(func(n *El) bool { return n.Tag == "label" && n.Attr("for") == t.Attr("id") }); l != nil {
			return l
		}
	}
	return t
}

// substitution puts another control where the target was: the same kind
// of control with other words, then a control of another kind.
func substitution(s Scenario, k int) Variant {
	b := s.Body.Clone()
	t, parent := targetOf(b)
	words := s.Subs[k%len(s.Subs)]
	var sub *El
	switch {
	case t.Tag == "input":
		// The field and its label give way to another field.
		l := wordsOf(b, t)
		t.Set("id", t.Attr("id")+"-x")
		l.Set("for", t.Attr("id"))
		l.Text, t.Ctl = words, "sub:"+words
		return Variant{Name: fmt.Sprintf("substitution-%d", k+1), Kind: KindSubstitution, What: fmt.Sprintf("the checkbox %q stands where the target was", words), Body: b, Expect: Refuse}
	case k%2 == 1:
		sub = E("a", "href", "#", "class", t.Attr("class")).T(words)
	default:
		sub = E(t.Tag, "type", "button", "class", t.Attr("class")).T(words)
	}
	sub.Ctl = "sub:" + words
	for i, kid := range parent.Kids {
		if kid == t {
			parent.Kids[i] = sub
		}
	}
	return Variant{Name: fmt.Sprintf("substitution-%d", k+1), Kind: KindSubstitution, What: fmt.Sprintf("a %s %q stands where the target was", sub.Tag, words), Body: b, Expect: Refuse}
}

// unitOf is what an ambiguity duplicates: the target's row or card, or
// the group its parent makes.
func unitOf(b *El) (unit, parent *El) {
	var path []*El
	var walk func(n *El) bool
	walk = func(n *El) bool {
		path = append(path, n)
		if n.Ctl == Target {
			return true
		}
		for _, k := range n.Kids {
			if walk(k) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	walk(b)
	for i := len(path) - 2; i > 0; i-- {
		if path[i].Row || path[i].Unit {
			return path[i], path[i-1]
		}
	}
	// The target's group: its parent, unless that is a frame's or a
	// shadow root's top, then the target alone.
	if n := len(path); n >= 3 && !path[n-2].Frame && !path[n-2].Shadow {
		return path[n-2], path[n-3]
	}
	return path[len(path)-1], path[len(path)-2]
}

// ambiguity duplicates the target's row, card or group: beside it, then
// at the end of its list.
func ambiguity(s Scenario, k int) Variant {
	b := s.Body.Clone()
	unit, parent := unitOf(b)
	dup := unit.Clone()
	dup.Walk(func(n, _ *El) bool {
		if n.Ctl != "" {
			n.Ctl = "copy:" + n.Ctl
		}
		if id := n.Attr("id"); id != "" { // a copy keeps its own ids, as a list rendered twice would not; labels follow
			n.Set("id", id+"-2")
		}
		if f := n.Attr("for"); f != "" {
			n.Set("for", f+"-2")
		}
		return true
	})
	i := slices.Index(parent.Kids, unit)
	what := "beside it"
	if k%2 == 1 {
		parent.Kids = append(parent.Kids, dup)
		what = "at the end of its list"
	} else {
		parent.Kids = slices.Insert(parent.Kids, i+1, dup)
	}
	return Variant{Name: fmt.Sprintf("ambiguity-%d", k+1), Kind: KindAmbiguity,
		What: fmt.Sprintf("the target's %s duplicated %s", describeUnit(unit), what), Body: b, Expect: Refuse}
}

func describeUnit(u *El) string {
	switch {
	case u.Tag == "tr":
		return "table row"
	case u.Row:
		return "card"
	case u.Ctl == Target:
		return "control"
	}
	return "group (" + u.Tag + ")"
}

// renamed gives the target new words.
func renamed(s Scenario, k int) Variant {
	b := s.Body.Clone()
	t, _ := targetOf(b)
	words := s.Renames[k%len(s.Renames)]
	w := wordsOf(b, t)
	old := w.Text
	w.Text = words
	if t.Row { // never: rows hold controls
		panic("row target")
	}
	// In a list, every row's control is renamed, as a redesign does.
	if old != "" {
		b.Walk(func(n, _ *El) bool {
			if n != w && n.Ctl != "" && strings.HasPrefix(n.Ctl, "c:"+old+"@") {
				n.Text = words
			}
			return true
		})
	}
	return Variant{Name: fmt.Sprintf("renamed-%d", k+1), Kind: KindRenamed, What: fmt.Sprintf("%q is now %q", old, words), Body: b, Expect: Press}
}

// listOf is the list the rows variants change: the target's own list when
// it is in one, else the first list on the page.
func listOf(b *El) (list *El, targetRow *El) {
	unit, parent := unitOf(b)
	if unit.Row {
		return parent, unit
	}
	l, _ := b.Find(func(n *El) bool {
		for _, k := range n.Kids {
			if k.Row {
				return true
			}
		}
		return false
	})
	return l, nil
}

// rows changes the list: reversed, another row removed, the target's row
// removed (refuse), a new row on top.
func rows(r *rand.Rand, s Scenario, k int) Variant {
	b := s.Body.Clone()
	list, tr := listOf(b)
	name := fmt.Sprintf("rows-%d", k+1)
	if list == nil {
		return Variant{Name: name, Kind: KindRows, What: "no list on the page", Body: b, Expect: Press}
	}
	var rowIdx []int
	for i, kid := range list.Kids {
		if kid.Row {
			rowIdx = append(rowIdx, i)
		}
	}
	switch k % 4 {
	case 0: // reversed
		rs := make([]*El, len(rowIdx))
		for j, i := range rowIdx {
			rs[len(rowIdx)-1-j] = list.Kids[i]
		}
		for j, i := range rowIdx {
			list.Kids[i] = rs[j]
		}
		return Variant{Name: name, Kind: KindRows, What: "the list reversed", Body: b, Expect: Press}
	case 1: // the target's row removed, or another row when it is in none
		if tr != nil {
			list.Kids = slices.DeleteFunc(list.Kids, func(n *El) bool { return n == tr })
			return Variant{Name: name, Kind: KindRows, What: fmt.Sprintf("the target's row %q removed", tr.Key), Body: b, Expect: Refuse}
		}
		fallthrough
	case 2: // another row removed
		var other *El
		for _, i := range rowIdx {
			if list.Kids[i] != tr {
				other = list.Kids[i]
				break
			}
		}
		list.Kids = slices.DeleteFunc(list.Kids, func(n *El) bool { return n == other })
		return Variant{Name: name, Kind: KindRows, What: fmt.Sprintf("another row %q removed", other.Key), Body: b, Expect: Press}
	}
	// A new row on top, made like the others.
	nr := list.Kids[rowIdx[len(rowIdx)-1]].Clone()
	key := fmt.Sprintf("New item %s", token(r, 3))
	nr.Walk(func(n, _ *El) bool {
		if n.Text == nr.Key {
			n.Text = key
		}
		if n.Ctl != "" {
			n.Ctl = "new:" + n.Ctl
		}
		return true
	})
	nr.Key = key
	list.Kids = slices.Insert(list.Kids, rowIdx[0], nr)
	return Variant{Name: name, Kind: KindRows, What: "a new row on top", Body: b, Expect: Press}
}
