package targets

import (
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Weights of what agrees between a recorded fingerprint and an element now.
// Identity (role, name, test id, label) weighs most; place (ancestors,
// index) and attributes that change between builds (id, type, text) less.
const (
	wRole        = 2.0
	wName        = 3.0
	wTestID      = 3.0
	wLabel       = 1.5
	wInferred    = 1.0 // a name read beside the element is evidence, never identity
	wPlaceholder = 1.0
	wTag         = 0.5
	wType        = 0.5
	wID          = 1.0
	wText        = 1.0
	wAncestors   = 1.5
	wIndex       = 0.5
)

// Comparison is how an element now compares with a recorded fingerprint.
type Comparison struct {
	Score    float64  // 0–1: the share of the recorded evidence that agrees
	Matched  []string // fields that agree
	Differs  []string // fields that disagree
	Conflict string   // non-empty: evidence that this is a different control
}

// Compare scores an element's fingerprint now (cur) against a recorded one.
// A conflict is a disagreement on identity: another role, another test id,
// or another name where no test id vouches for the element (a translated
// page keeps its test ids).
func Compare(rec, cur calls.Fingerprint) Comparison {
	// A fingerprint the driver took is folded already (Fingerprint); one
	// written by hand (routine/FORMAT.md's example, a program's routine)
	// says "Email" where the page's is "email", which is no other name.
	rec.Name, rec.Label, rec.Inferred, rec.Text = norm(rec.Name), norm(rec.Label), norm(rec.Inferred), norm(rec.Text)
	if rec.Role == "generic" && cur.Role == "clickable" {
		rec.Role = cur.Role // recorded before clickable elements had a role of their own
	}
	var c Comparison
	var got, max float64
	field := func(name string, w float64, recorded, now string, similar bool) {
		if recorded == "" {
			return
		}
		max += w
		switch {
		case recorded == now:
			got += w
			c.Matched = append(c.Matched, name)
		case similar && Alike(recorded, now):
			got += w / 2
			c.Matched = append(c.Matched, name+"~")
		default:
			c.Differs = append(c.Differs, name)
		}
	}
	field("role", wRole, rec.Role, cur.Role, false)
	field("testid", wTestID, rec.TestID, cur.TestID, false)
	field("name", wName, rec.Name, cur.Name, true)
	field("label", wLabel, rec.Label, cur.Label, true)
	field("inferred", wInferred, rec.Inferred, cur.Inferred, true)
	field("placeholder", wPlaceholder, norm(rec.Placeholder), norm(cur.Placeholder), true)
	field("tag", wTag, rec.Tag, cur.Tag, false)
	field("type", wType, rec.Type, cur.Type, false)
	field("id", wID, rec.ID, cur.ID, false)
	field("text", wText, rec.Text, cur.Text, true)
	if len(rec.Ancestors) > 0 {
		max += wAncestors
		j := jaccard(rec.Ancestors, cur.Ancestors)
		got += wAncestors * j
		if j >= 0.5 {
			c.Matched = append(c.Matched, "ancestors")
		} else {
			c.Differs = append(c.Differs, "ancestors")
		}
	}
	max += wIndex
	if rec.Index == cur.Index {
		got += wIndex
	}
	if max > 0 {
		c.Score = got / max
	}

	testIDAgrees := rec.TestID != "" && rec.TestID == cur.TestID
	switch {
	case rec.Role != cur.Role:
		c.Conflict = "it is a " + cur.Role + " now, not a " + rec.Role
	case rec.TestID != "" && cur.TestID != "" && rec.TestID != cur.TestID:
		c.Conflict = "its test id is " + quote(cur.TestID) + " now, not " + quote(rec.TestID)
	case !testIDAgrees && rec.Name != "" && !Alike(rec.Name, cur.Name):
		c.Conflict = "it is named " + quote(cur.Name) + " now, not " + quote(rec.Name)
	}
	return c
}

// Alike reports whether two normalised strings say the same thing: equal,
// one holding the other as whole words, or sharing most of their words.
func Alike(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	if a == b {
		return true
	}
	if containsWords(a, b) || containsWords(b, a) {
		return true
	}
	return jaccard(strings.Fields(a), strings.Fields(b)) >= 0.6
}

func containsWords(long, short string) bool {
	return strings.Contains(" "+long+" ", " "+short+" ")
}

func jaccard(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	set := map[string]int{}
	for _, x := range a {
		set[x] |= 1
	}
	for _, x := range b {
		set[x] |= 2
	}
	both := 0
	for _, v := range set {
		if v == 3 {
			both++
		}
	}
	return float64(both) / float64(len(set))
}

func quote(s string) string { return `"` + s + `"` }
