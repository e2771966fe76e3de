package secret

import (
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// MinKnown is the shortest known value a [Set] looks for inside other
// text. A shorter value (a PIN, a three-digit code, one box of a split
// code) is masked only where it stands alone, not inside a longer run of
// letters or digits: "PIN 482" and "?pin=482" lose it, "#14820" keeps it,
// since masking every "482" would wreck ordinary text.
const MinKnown = 4

// Set holds the secret values known in a run and redacts text with them
// and with the heuristic. The zero Set is empty and ready; a Set is safe
// for concurrent use.
type Set struct {
	// mu guards the fields below.
	mu    sync.RWMutex
	forms []form // every encoding of every value, longest first; never changed in place
	gen   uint64 // counts changes, so handlers can rebuild what they cached
}

// form is one spelling of a known value: the raw bytes or an encoding.
// A whole form matches only where no letter or digit touches it.
type form struct {
	name, text string
	whole      bool
}

// Add makes value known as name: [Set.Redact] replaces it, and its
// URL-encoded, JSON-escaped, hex and base64 forms, with «secret:name»
// ([Mark]). A value shorter than [MinKnown] bytes is looked for only as it
// is, and only where it stands alone; an empty value is not looked for.
func (s *Set) Add(name, value string) {
	if value == "" {
		return
	}
	var add []form
	if len(value) < MinKnown {
		// Its encodings are a character or two, found in any text.
		add = []form{{name, value, true}}
	} else {
		for _, f := range encodings(value) {
			add = append(add, form{name: name, text: f})
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Copy on write: Redact works on the slice it read, outside the lock.
	forms := slices.Clone(s.forms)
	for _, f := range add {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	// Longest first, so that a value containing another is replaced whole.
	slices.SortStableFunc(forms, func(a, b form) int { return cmp.Compare(len(b.text), len(a.text)) })
	s.forms = forms
	s.gen++
}

// NewSet returns a set that knows values, each under its own name.
func NewSet(values ...Value) *Set {
	s := new(Set)
	for _, v := range values {
		s.AddValue(v)
	}
	return s
}

// AddValue is Add for a [Value], under its own name.
func (s *Set) AddValue(v Value) { s.Add(v.Name(), v.Reveal()) }

// generation returns a number that changes whenever a value is added.
func (s *Set) generation() uint64 {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.gen
}

// encodings returns value and the forms it takes in URLs, JSON strings,
// hex and base64. For base64 it returns the characters that encode value
// at each of the three alignments it can have inside a longer encoding
// (an HTTP Basic header encodes "user:" before the password): the one or
// two characters at either end that mix in neighbouring bytes are left
// out, and they stay visible, which tells at most a few bits.
func encodings(value string) []string {
	out := []string{value, url.QueryEscape(value), url.PathEscape(value), hex.EncodeToString([]byte(value))}
	if b, err := json.Marshal(value); err == nil {
		out = append(out, string(b[1:len(b)-1]))
	}
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if enc.Encode(value) == nil {
		j := strings.TrimSpace(sb.String())
		out = append(out, j[1:len(j)-1])
	}
	n := len(value)
	for k := range 3 {
		buf := append(make([]byte, k), value...)
		from, to := (8*k+5)/6, 8*(k+n)/6
		for _, e := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			out = append(out, e.EncodeToString(buf)[from:to])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Contains reports whether text holds a known value, in any of its forms,
// and which. It looks only for values of [MinKnown] bytes or more: it
// decides refusals (a routine holding a secret is not saved), and a short
// value standing alone in a file ("index": 7) is more often a number than
// the secret; [Set.Redact] masks short values all the same.
func (s *Set) Contains(text string) (name string, ok bool) {
	if s == nil {
		return "", false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, f := range s.forms {
		if !f.whole && f.in(text) {
			return f.name, true
		}
	}
	return "", false
}

// in reports whether text holds the form.
func (f form) in(text string) bool {
	if !f.whole {
		return strings.Contains(text, f.text)
	}
	found := false
	f.each(text, func(int) bool { found = true; return false })
	return found
}

// each calls yield with the offset of every occurrence of the form in
// text, overlapping ones too, until yield returns false.
func (f form) each(text string, yield func(at int) bool) {
	for off := 0; ; {
		k := strings.Index(text[off:], f.text)
		if k < 0 {
			return
		}
		at := off + k
		if !f.whole || alone(text, at, at+len(f.text)) {
			if !yield(at) {
				return
			}
		}
		// Step one byte, not the whole match, so that overlapping
		// occurrences ("aaaa" in "aaaaa") are all covered.
		off = at + 1
	}
}

// alone reports whether text[start:end] touches no letter or digit.
func alone(text string, start, end int) bool {
	if r, _ := utf8.DecodeLastRuneInString(text[:start]); start > 0 && alnum(r) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(text[end:]); end < len(text) && alnum(r) {
		return false
	}
	return true
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Redact returns text with every known value (in any of its forms)
// replaced by «secret:NAME» and everything else the heuristic takes for a
// secret by «secret». A nil Set redacts with the heuristic only.
func (s *Set) Redact(text string) string {
	var forms []form
	if s != nil {
		s.mu.RLock()
		forms = s.forms
		s.mu.RUnlock()
	}
	return redact(text, forms)
}

// Redact returns s with everything the heuristic takes for a secret
// replaced by «secret». It knows no values; use [Set.Redact] for those.
func Redact(s string) string { return redact(s, nil) }

// markRE matches the marks redaction writes, so that redacting twice gives
// the same text as redacting once.
var markRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`«secret(?::[^«»\s]*)?»`) })

// insideMark reports whether a finding overlaps a mark.
func insideMark(marks [][]int, start, end int) bool {
	for _, m := range marks {
		if start < m[1] && end > m[0] {
			return true
		}
	}
	return false
}

// span is a part of the text to mask; name is the known value's name, or
// "" for a heuristic finding.
type span struct {
	start, end int
	name       string
}

func redact(text string, forms []form) string {
	var spans []span
	marks := markRE().FindAllStringIndex(text, -1)
	for _, f := range forms {
		f.each(text, func(at int) bool {
			// A short value inside a mark ("1" in «secret:pin_1») is the
			// mark's name, not the value.
			if !f.whole || !insideMark(marks, at, at+len(f.text)) {
				spans = append(spans, span{at, at + len(f.text), f.name})
			}
			return true
		})
	}
	for _, f := range Detect(text) {
		if insideMark(marks, f.Start, f.End) {
			continue // a mark of an earlier redaction is not a secret
		}
		spans = append(spans, span{f.Start, f.End, ""})
	}
	if len(spans) == 0 {
		return text
	}
	spans = joinSpans(spans)
	out := write(text, spans, func(sp span) string {
		if sp.name != "" {
			return Mark(sp.name)
		}
		return anonymous
	})
	if !leaks(out, forms) {
		return out
	}
	// A mark made the value again: a name that contains its value, or a
	// value with « or » that joins a mark to the text around it. Marks of
	// a character that no value holds cannot do either, and no value is
	// left between them, since every occurrence was inside a span.
	c := safeMark(forms)
	return write(text, spans, func(span) string { return c + c + c })
}

// joinSpans sorts spans and joins the ones that overlap or touch; a joined
// span keeps a known name over the heuristic's "".
func joinSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	out := spans[:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.start <= out[n-1].end {
			last := &out[n-1]
			last.end = max(last.end, sp.end)
			if last.name == "" {
				last.name = sp.name
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}

func write(text string, spans []span, mark func(span) string) string {
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, sp := range spans {
		b.WriteString(text[last:sp.start])
		b.WriteString(mark(sp))
		last = sp.end
	}
	b.WriteString(text[last:])
	return b.String()
}

func leaks(out string, forms []form) bool {
	marks := markRE().FindAllStringIndex(out, -1)
	for _, f := range forms {
		leak := false
		f.each(out, func(at int) bool {
			leak = !f.whole || !insideMark(marks, at, at+len(f.text))
			return !leak
		})
		if leak {
			return true
		}
	}
	return false
}

// safeMark returns a one-character mark that no known form contains.
func safeMark(forms []form) string {
	for r := '*'; ; r++ {
		c := string(r)
		if !slices.ContainsFunc(forms, func(f form) bool { return strings.Contains(f.text, c) }) {
			return c
		}
	}
}
