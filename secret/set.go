package secret

import (
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"html"
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
// and with the heuristic. It is the one known-value matcher of waymark:
// the driver's session registry, the pilot, traces, test plans and
// network captures each hold one. The zero Set is empty and ready; a Set
// is safe for concurrent use.
type Set struct {
	// mu guards the fields below.
	mu     sync.RWMutex
	idx    index
	values []Value // every value added, in order, once
	gen    uint64  // counts changes, so handlers can rebuild what they cached
}

// form is one spelling of a known value: the raw bytes or an encoding.
// A whole form matches only where no letter or digit touches it.
type form struct {
	name, text string
	whole      bool
}

// index finds every form in a text in one pass, whatever the number of
// values (a capture makes thousands known: a site that turns a cookie
// over on every response): forms are kept by their first longForm bytes,
// or shortForm bytes, or in a short list when shorter still.
type index struct {
	long, short map[string][]form // longest first
	tiny        []form            // forms shorter than shortForm
	first       [256]bool         // the first bytes of all forms
	seen        map[form]bool
	all         []form
	longest     int // the length of the longest form
}

// Prefix lengths of the index.
const (
	longForm  = 8
	shortForm = 4
)

func (x *index) add(f form) bool {
	if x.seen[f] {
		return false
	}
	if x.seen == nil {
		x.seen, x.long, x.short = map[form]bool{}, map[string][]form{}, map[string][]form{}
	}
	x.seen[f] = true
	x.all = append(x.all, f)
	x.first[f.text[0]] = true
	x.longest = max(x.longest, len(f.text))
	switch n := len(f.text); {
	case n >= longForm:
		x.long[f.text[:longForm]] = insertLongest(x.long[f.text[:longForm]], f)
	case n >= shortForm:
		x.short[f.text[:shortForm]] = insertLongest(x.short[f.text[:shortForm]], f)
	default:
		x.tiny = insertLongest(x.tiny, f)
	}
	return true
}

// insertLongest puts f into list, kept longest first, after the forms of
// its length: a bucket may hold thousands (the hex of values that start
// alike), so it is not sorted again.
func insertLongest(list []form, f form) []form {
	i, _ := slices.BinarySearchFunc(list, len(f.text), func(e form, n int) int {
		if len(e.text) >= n {
			return -1
		}
		return 1
	})
	return slices.Insert(list, i, f)
}

// scan calls yield with every form found in text and where, overlapping
// ones too, until yield returns false. A whole form is found only where
// it stands alone.
func (x *index) scan(text string, yield func(f form, at int) bool) {
	x.scanFrom(text, 0, len(text), yield)
}

// scanFrom is scan for the forms that start in text[from:to].
func (x *index) scanFrom(text string, from, to int, yield func(f form, at int) bool) bool {
	if len(x.all) == 0 {
		return true
	}
	try := func(list []form, at int) bool {
		for _, f := range list {
			if strings.HasPrefix(text[at:], f.text) && (!f.whole || alone(text, at, at+len(f.text))) {
				if !yield(f, at) {
					return false
				}
			}
		}
		return true
	}
	for at := from; at < to; at++ {
		if !x.first[text[at]] {
			continue
		}
		if at+longForm <= len(text) && !try(x.long[text[at:at+longForm]], at) {
			return false
		}
		if at+shortForm <= len(text) && !try(x.short[text[at:at+shortForm]], at) {
			return false
		}
		if !try(x.tiny, at) {
			return false
		}
	}
	return true
}

// Add makes value known as name: [Set.Redact] replaces it, and its
// URL-encoded, JSON-escaped, HTML-escaped, hex and base64 forms, with
// «secret:name» ([Mark]). A value shorter than [MinKnown] bytes is looked
// for only as it is, and only where it stands alone; an empty value is
// not looked for.
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
	changed := false
	for _, f := range add {
		changed = s.idx.add(f) || changed
	}
	if changed {
		s.values = append(s.values, New(name, value))
		s.gen++
	}
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

// Values returns the values the set knows, in the order they were added:
// for a part that must tell them to another matcher of its own marks (a
// capture's keyed markers).
func (s *Set) Values() []Value {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.values)
}

// Len returns how many values the set knows.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.values)
}

// generation returns a number that changes whenever a value is added.
func (s *Set) generation() uint64 {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.gen
}

// encodings returns value and the forms it takes in URLs (as Go's url
// package and JavaScript's encoders write them), JSON strings
// (Go's, which escapes <, > and &, and JavaScript's, which does not; with
// "/" as "\/" as PHP writes it), HTML text, hex and base64. For base64 it
// returns the whole encodings and the characters that encode value at
// each of the three alignments it can have inside a longer encoding (an
// HTTP Basic header encodes "user:" before the password): the one or two
// characters at either end that mix in neighbouring bytes are left out,
// and they stay visible, which tells at most a few bits.
func encodings(value string) []string {
	h := hex.EncodeToString([]byte(value))
	out := []string{value, url.QueryEscape(value), url.PathEscape(value), h, strings.ToUpper(h)}
	out = append(out, jsSpellings(value)...) // jsencode.go
	for _, escHTML := range []bool{true, false} {
		var sb strings.Builder
		enc := json.NewEncoder(&sb)
		enc.SetEscapeHTML(escHTML)
		if enc.Encode(value) == nil {
			j := strings.TrimSpace(sb.String())
			j = j[1 : len(j)-1]
			out = append(out, j, strings.ReplaceAll(j, "/", `\/`))
		}
	}
	esc := html.EscapeString(value) // &#39; and &#34;
	out = append(out, esc, strings.ReplaceAll(esc, "&#34;", "&quot;"),
		strings.NewReplacer("&#34;", "&quot;", "&#39;", "&#039;").Replace(esc))
	n := len(value)
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		out = append(out, e.EncodeToString([]byte(value)))
	}
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
	s.idx.scan(text, func(f form, _ int) bool {
		if !f.whole {
			name, ok = f.name, true
		}
		return !ok
	})
	return name, ok
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
func (s *Set) Redact(text string) string { return s.redact(text, true, Mark) }

// Mask returns text with every known value (in any of its forms) replaced
// by «secret:NAME», and nothing else: for page text (an outline, a
// document, a sheet) where what merely looks like a key is content.
func (s *Set) Mask(text string) string { return s.redact(text, false, Mark) }

// MaskWith is Mask with the caller's marks: mark(name) stands for the
// value known as name (a capture writes its keyed markers so).
func (s *Set) MaskWith(text string, mark func(name string) string) string {
	return s.redact(text, false, mark)
}

func (s *Set) redact(text string, heuristic bool, mark func(string) string) string {
	var x *index
	if s != nil {
		s.mu.RLock()
		defer s.mu.RUnlock()
		x = &s.idx
	} else {
		x = new(index)
	}
	return redact(text, x, heuristic, mark)
}

// Redact returns s with everything the heuristic takes for a secret
// replaced by «secret». It knows no values; use [Set.Redact] for those.
func Redact(s string) string { return redact(s, new(index), true, Mark) }

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

func redact(text string, x *index, heuristic bool, mark func(string) string) string {
	var spans []span
	var marks [][]int
	if strings.Contains(text, "«secret") {
		marks = markRE().FindAllStringIndex(text, -1)
	}
	x.scan(text, func(f form, at int) bool {
		// A short value inside a mark ("1" in «secret:pin_1») is the
		// mark's name, not the value.
		if !f.whole || !insideMark(marks, at, at+len(f.text)) {
			spans = append(spans, span{at, at + len(f.text), f.name})
		}
		return true
	})
	if heuristic {
		for _, f := range Detect(text) {
			if insideMark(marks, f.Start, f.End) {
				continue // a mark of an earlier redaction is not a secret
			}
			spans = append(spans, span{f.Start, f.End, ""})
		}
	}
	if len(spans) == 0 {
		return text
	}
	spans = joinSpans(spans)
	out, written := write(text, spans, func(sp span) string {
		if sp.name != "" {
			return mark(sp.name)
		}
		return anonymous
	})
	if !leaks(out, x, written) {
		return out
	}
	// A mark made the value again: a name that contains its value, or a
	// value with « or » that joins a mark to the text around it. Marks of
	// a character that no value holds cannot do either, and no value is
	// left between them, since every occurrence was inside a span.
	c := safeMark(x.all)
	out, _ = write(text, spans, func(span) string { return c + c + c })
	return out
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

// write returns text with each span replaced by its mark, and where the
// marks are in what it returns.
func write(text string, spans []span, mark func(span) string) (string, [][]int) {
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	at := make([][]int, 0, len(spans))
	for _, sp := range spans {
		b.WriteString(text[last:sp.start])
		m := mark(sp)
		at = append(at, []int{b.Len(), b.Len() + len(m)})
		b.WriteString(m)
		last = sp.end
	}
	b.WriteString(text[last:])
	return b.String(), at
}

// leaks reports whether out still holds a known value: any occurrence of
// a value's form, or a short value standing alone outside a mark. Every
// occurrence in the text was inside a span, so one in out must overlap a
// mark written or stand next to one: only the text around the marks is
// read again.
func leaks(out string, x *index, written [][]int) bool {
	var marks [][]int
	if strings.Contains(out, "«secret") {
		marks = markRE().FindAllStringIndex(out, -1)
	}
	marks = append(marks, written...)
	leak := false
	next := 0
	for _, w := range written {
		from, to := max(next, w[0]-x.longest), min(len(out), w[1]+1)
		if from >= to {
			continue
		}
		x.scanFrom(out, from, to, func(f form, at int) bool {
			leak = !f.whole || !insideMark(marks, at, at+len(f.text))
			return !leak
		})
		if leak {
			return true
		}
		next = to
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
