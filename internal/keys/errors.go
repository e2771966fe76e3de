package keys

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/waymark-dev/waymark/internal/textdist"
)

var (
	// ErrUnknownKey is matched by an [*UnknownKeyError].
	ErrUnknownKey = errors.New("unknown key")
	// ErrChord is returned by [Press] for a chord it cannot read, such as
	// "A+B" (A is no modifier) or "Control++A" (an empty name).
	ErrChord = errors.New("bad key chord")
)

// knownKeys ends the message of an unknown key.
var knownKeys = "known keys: " + strings.Join(namesForHelp(), ", ") +
	", or one character such as a, A, 1 or /; chords join modifiers with +, as in Control+Shift+ArrowLeft"

func namesForHelp() []string {
	var out []string
	for _, n := range named {
		switch {
		case n.name == "F1":
			out = append(out, "F1–F12")
		case strings.HasPrefix(n.name, "F") && len(n.name) <= 3:
		default:
			out = append(out, n.name)
		}
	}
	return out
}

// UnknownKeyError is returned by [Press] for a name that is neither a known
// key nor a single character of a US keyboard.
type UnknownKeyError struct {
	Name        string   // the name as given
	Suggestions []string // the closest known names, best first; may be empty
}

func (e *UnknownKeyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "unknown key %q; ", e.Name)
	if len([]rune(e.Name)) == 1 {
		b.WriteString("it has no key on a US keyboard, so type it instead; ")
	}
	if len(e.Suggestions) > 0 {
		q := make([]string, len(e.Suggestions))
		for i, s := range e.Suggestions {
			q[i] = fmt.Sprintf("%q", s)
		}
		fmt.Fprintf(&b, "did you mean %s? ", strings.Join(q, " or "))
	}
	b.WriteString(knownKeys)
	return b.String()
}

// Unwrap returns [ErrUnknownKey].
func (e *UnknownKeyError) Unwrap() error { return ErrUnknownKey }

// suggest returns up to four known names closest to name: those within a
// small edit distance of a name or alias, or that start with name, closest
// first.
func suggest(name string) []string {
	lower := strings.ToLower(name)
	if len(lower) < 2 {
		return nil
	}
	limit := 2
	if len(lower) <= 3 {
		limit = 1
	}
	type cand struct {
		name string
		dist int
		rank int
	}
	best := map[string]cand{}
	consider := func(spelling, canonical string, rank int) {
		d := textdist.Distance(lower, strings.ToLower(spelling))
		if len(lower) >= 3 && strings.HasPrefix(strings.ToLower(spelling), lower) {
			d = min(d, limit) // "Arrow" suggests every arrow
		}
		if d > limit {
			return
		}
		if c, ok := best[canonical]; !ok || d < c.dist {
			best[canonical] = cand{canonical, d, rank}
		}
	}
	for i, n := range named {
		consider(n.name, n.name, i)
	}
	for alias, canonical := range aliases {
		consider(alias, canonical, len(named))
	}
	cands := make([]cand, 0, len(best))
	for _, c := range best {
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		if cands[i].rank != cands[j].rank {
			return cands[i].rank < cands[j].rank
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for _, c := range cands {
		if len(out) == 4 {
			break
		}
		out = append(out, c.name)
	}
	return out
}
