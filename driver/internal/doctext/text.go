package doctext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/waymark-dev/waymark/calls"
)

// The text of a document as its copy gives it: where words are (lines,
// paragraphs, columns), and the comparison that says an insert landed.
// Editors put different breaks between blocks on the clipboard (Quill
// one "\n", ProseMirror "\n\n"), so comparisons drop empty lines.

// Find returns every place of words in text, case-insensitively.
func Find(text, words string) []calls.DocMatch {
	words = strings.TrimSpace(strings.ReplaceAll(words, "\u00a0", " "))
	if words == "" {
		return nil
	}
	var out []calls.DocMatch
	para := 0
	for i, line := range strings.Split(Clean(text), "\n") {
		if strings.TrimSpace(line) != "" {
			para++
		}
		hay, needle := strings.ToLower(line), strings.ToLower(words)
		if len(hay) != len(line) || len(needle) != len(words) {
			hay, needle = line, words // a case change that moves bytes: look as written
		}
		for from := 0; ; {
			k := strings.Index(hay[from:], needle)
			if k < 0 {
				break
			}
			k += from
			out = append(out, calls.DocMatch{Line: i + 1, Paragraph: para, Column: utf8.RuneCountInString(line[:k]) + 1, Context: clip(strings.TrimSpace(line), 120)})
			from = k + len(needle)
		}
	}
	return out
}

// Lines returns every line of text whose words are line's, as
// written (spaces around them aside).
func Lines(text, line string) []calls.DocMatch {
	line = strings.TrimSpace(strings.ReplaceAll(line, "\u00a0", " "))
	var out []calls.DocMatch
	para := 0
	for i, l := range strings.Split(Clean(text), "\n") {
		if strings.TrimSpace(l) != "" {
			para++
		}
		if strings.TrimSpace(l) == line && line != "" {
			out = append(out, calls.DocMatch{Line: i + 1, Paragraph: para, Column: 1, Context: clip(line, 120)})
		}
	}
	return out
}

// Clean makes a copy's text plain: "\n" line ends, spaces for
// no-break spaces.
func Clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\u00a0", " ")
}

// Shape is text as compared after an insert: lines trimmed at their
// ends, empty lines dropped.
func Shape(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(Clean(s), "\n") {
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) == "" {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// LineCount is the number of lines of a copy's text.
func LineCount(s string) int {
	s = strings.TrimRight(Clean(s), "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// PlaceDesc names matches for an error: "line 3 (“…”), line 9 (“…”)".
func PlaceDesc(ms []calls.DocMatch) string {
	var parts []string
	for i, m := range ms {
		if i == 5 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, "line "+strconv.Itoa(m.Line)+" ("+quoteShort(m.Context)+")")
	}
	return strings.Join(parts, ", ")
}

func quoteShort(s string) string { return "\u201c" + clip(s, 60) + "\u201d" }

// InsertMode checks an insert's request and says where it goes.
func InsertMode(req calls.DocInsertRequest) (mode, words string, err error) {
	n := 0
	if req.After != "" {
		mode, words, n = "after", req.After, n+1
	}
	if req.Replace != "" {
		mode, words, n = "replace", req.Replace, n+1
	}
	if req.End {
		mode, n = "end", n+1
	}
	switch {
	case n != 1:
		return "", "", calls.Errorf(calls.ErrBadInput, "give one of --after WORDS, --replace LINE or --end", "say where the text goes, once")
	case req.Text == "":
		return "", "", calls.Errorf(calls.ErrBadInput, "give the text to type", "no text to insert")
	case mode == "replace" && (len([]rune(strings.TrimSpace(words))) > calls.MaxDocReplace || len([]rune(req.Text)) > calls.MaxDocReplace):
		return "", "", calls.Errorf(calls.ErrBadInput, fmt.Sprintf("replace one line of at most %d characters with at most %d; insert longer text with --after or --end", calls.MaxDocReplace, calls.MaxDocReplace),
			"a replace is one line of at most %d characters, with text of at most %d; this one is %d over %d", calls.MaxDocReplace, calls.MaxDocReplace, len([]rune(req.Text)), len([]rune(strings.TrimSpace(words))))
	case mode == "replace" && strings.ContainsAny(words, "\n\r"):
		return "", "", calls.Errorf(calls.ErrBadInput, "name one line", "a replace names one line, not several")
	}
	return mode, words, nil
}

// Where names the place of an insert.
func Where(mode, words string) string {
	switch mode {
	case "after":
		return "after " + quoteShort(words)
	case "replace":
		return "over the line " + quoteShort(words)
	}
	return "at the end"
}

// Span returns the byte span of the one place of words in text
// (case-insensitive, a whole line for a replace).
func Span(text, words, mode string) (i, j int, ok bool) {
	words = strings.TrimSpace(strings.ReplaceAll(words, "\u00a0", " "))
	if mode == "replace" {
		off := 0
		for _, l := range strings.SplitAfter(text, "\n") {
			body := strings.TrimRight(l, "\n")
			if strings.TrimSpace(body) == words {
				k := strings.Index(body, words)
				return off + k, off + k + len(words), true
			}
			off += len(l)
		}
		return 0, 0, false
	}
	hay, needle := strings.ToLower(text), strings.ToLower(words)
	if len(hay) != len(text) || len(needle) != len(words) {
		hay, needle = text, words
	}
	k := strings.Index(hay, needle)
	if k < 0 {
		return 0, 0, false
	}
	return k, k + len(needle), true
}

// LineAt is the line of the read text an insert's text starts on.
func LineAt(mode, before, words string) int {
	switch mode {
	case "end":
		return LineCount(before) + 1
	default:
		i, _, _ := Span(before, words, mode)
		return strings.Count(before[:i], "\n") + 1
	}
}

// DrawnAt places the drawn lines in doc: the run [a, b) of doc's lines
// the most of them make (the view), and whether line is drawn at all.
// An editor may draw runs apart (CodeMirror 6 keeps the caret's lines
// drawn besides the view), so the drawn lines are matched run by run,
// in order.
func DrawnAt(doc, drawn []string, line int) (a, b int, in, ok bool) {
	same := func(x, y string) bool { return strings.TrimRight(x, " ") == strings.TrimRight(y, " ") }
	from := 0
	for k := 0; k < len(drawn); {
		// The next run starts where three drawn lines match in a row, else
		// (a run of one or two lines) where its first line, not empty, does.
		start, alone := -1, -1
		for i := from; i < len(doc) && start < 0; i++ {
			n := 0
			for n < 3 && k+n < len(drawn) && i+n < len(doc) && same(doc[i+n], drawn[k+n]) {
				n++
			}
			switch {
			case n == min(3, len(drawn)-k):
				start = i
			case n > 0 && alone < 0 && strings.TrimSpace(drawn[k]) != "":
				alone = i
			}
		}
		if start < 0 {
			start = alone
		}
		if start < 0 {
			return a, b, in, ok
		}
		end := start
		for k < len(drawn) && end < len(doc) && same(doc[end], drawn[k]) {
			end, k = end+1, k+1
		}
		if line >= start && line < end {
			in = true
		}
		if end-start > b-a {
			a, b, ok = start, end, true
		}
		from = end
	}
	return a, b, in, ok
}

// clip cuts s to n runes, the last one "…" when cut (as the driver's
// looks clip a name).
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
