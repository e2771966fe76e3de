package outline

import (
	"strconv"
	"strings"
)

// Unchanged is written after the first line of a region that Carry folds.
const Unchanged = " (unchanged)"

// Carry is for a look of a new page whose reader saw prev, the outline of
// the page before: most sites repeat their banner, navigation and footer on
// every page, and reading them again with new refs costs an agent tokens
// for nothing. A region is a top-level line that ends with ":" and the
// lines indented under it (a landmark, a form, a navigation). Each region
// of now that reads as a region of prev but for its refs is offered to
// keep, as the map of its refs in now to the refs prev gave the same lines;
// keep gives the new elements the old refs and reports whether it could.
// Carry returns full, now with the kept regions' refs renamed (what a later
// look is compared with), and shown, full with each kept region written as
// its first line followed by Unchanged.
func Carry(prev, now string, keep func(refs map[string]string) bool) (full, shown string) {
	before := regions(strings.Split(prev, "\n"))
	byText := map[string][]region{}
	for _, r := range before {
		byText[r.norm] = append(byText[r.norm], r)
	}
	lines := strings.Split(now, "\n")
	after := regions(lines)
	if len(after) == 0 || len(before) == 0 {
		return now, now
	}
	shownLines := make([]string, 0, len(lines))
	at := 0
	for _, r := range after {
		shownLines = append(shownLines, lines[at:r.start]...)
		at = r.end
		same := byText[r.norm]
		if len(same) == 0 {
			shownLines = append(shownLines, lines[r.start:r.end]...)
			continue
		}
		old := same[0]
		m := make(map[string]string, len(r.refs))
		for k, ref := range r.refs {
			m[ref] = old.refs[k]
		}
		if !keep(m) {
			shownLines = append(shownLines, lines[r.start:r.end]...)
			continue
		}
		byText[r.norm] = same[1:]
		// The lines read as prev's: take prev's, which carry its refs.
		copy(lines[r.start:r.end], old.lines)
		shownLines = append(shownLines, lines[r.start]+Unchanged)
	}
	shownLines = append(shownLines, lines[at:]...)
	return strings.Join(lines, "\n"), strings.Join(shownLines, "\n")
}

// region is a top-level container line and the lines under it.
type region struct {
	start, end int      // lines [start, end) of the text
	lines      []string // those lines
	norm       string   // the lines with each ref written as "[ref=]"
	refs       []string // the refs of the lines, in order
}

// regions finds the regions of an outline's lines.
func regions(lines []string) []region {
	var out []region
	for i := 0; i < len(lines); i++ {
		head := lines[i]
		if !strings.HasPrefix(head, "- ") || !strings.HasSuffix(head, ":") ||
			i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "  ") {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.HasPrefix(lines[end], "  ") {
			end++
		}
		r := region{start: i, end: end, lines: lines[i:end]}
		var norm strings.Builder
		for _, l := range r.lines {
			if at, ref := refAt(l); at >= 0 {
				r.refs = append(r.refs, ref)
				norm.WriteString(l[:at])
				norm.WriteString("[ref=]")
				norm.WriteString(l[at+len("[ref=]")+len(ref):])
			} else {
				norm.WriteString(l)
			}
			norm.WriteByte('\n')
		}
		r.norm = norm.String()
		out = append(out, r)
		i = end - 1
	}
	return out
}

// refAt returns where the "[ref=…]" flag of an element line starts, and its
// ref; -1 when the line has none. The flag is looked for after the name, so
// that a name or value that reads "[ref=e5]" is not taken for it.
func refAt(s string) (int, string) {
	l, ok := ParseLine(s)
	if !ok || l.Ref == "" {
		return -1, ""
	}
	from := len(s) - len(strings.TrimLeft(s, " ")) + len("- ") + len(l.Role)
	rest := strings.TrimLeft(s[from:], " ~")
	from = len(s) - len(rest)
	if strings.HasPrefix(rest, `"`) {
		if q, err := strconv.QuotedPrefix(rest); err == nil {
			from += len(q)
		}
	}
	i := strings.Index(s[from:], "[ref="+l.Ref+"]")
	if i < 0 {
		return -1, ""
	}
	return from + i, l.Ref
}
