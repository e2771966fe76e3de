package driver

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/waymark-dev/waymark/calls"
)

// The text of a document as its copy gives it: where words are (lines,
// paragraphs, columns), and the comparison that says an insert landed.
// Editors put different breaks between blocks on the clipboard (Quill
// one "\n", ProseMirror "\n\n"), so comparisons drop empty lines.

// docFind returns every place of words in text, case-insensitively.
func docFind(text, words string) []calls.DocMatch {
	words = strings.TrimSpace(strings.ReplaceAll(words, "\u00a0", " "))
	if words == "" {
		return nil
	}
	var out []calls.DocMatch
	para := 0
	for i, line := range strings.Split(cleanDoc(text), "\n") {
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

// docLines returns every line of text whose words are line's, as
// written (spaces around them aside).
func docLines(text, line string) []calls.DocMatch {
	line = strings.TrimSpace(strings.ReplaceAll(line, "\u00a0", " "))
	var out []calls.DocMatch
	para := 0
	for i, l := range strings.Split(cleanDoc(text), "\n") {
		if strings.TrimSpace(l) != "" {
			para++
		}
		if strings.TrimSpace(l) == line && line != "" {
			out = append(out, calls.DocMatch{Line: i + 1, Paragraph: para, Column: 1, Context: clip(line, 120)})
		}
	}
	return out
}

// cleanDoc makes a copy's text plain: "\n" line ends, spaces for
// no-break spaces.
func cleanDoc(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\u00a0", " ")
}

// docShape is text as compared after an insert: lines trimmed at their
// ends, empty lines dropped.
func docShape(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(cleanDoc(s), "\n") {
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) == "" {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// docLineCount is the number of lines of a copy's text.
func docLineCount(s string) int {
	s = strings.TrimRight(cleanDoc(s), "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// placeDesc names matches for an error: "line 3 (“…”), line 9 (“…”)".
func placeDesc(ms []calls.DocMatch) string {
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
