package siteapi

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// A source map (version 3, the format every bundler writes) maps a place
// in a shipped script back to the file and line it was written in. No Go
// library of it is among the modules this build may use
// (github.com/go-sourcemap/sourcemap is not), and the part needed is
// small: the VLQ mappings of one line, read here.

// sourceMap is the part of a source map a lookup reads.
type sourceMap struct {
	Version        int       `json:"version"`
	SourceRoot     string    `json:"sourceRoot"`
	Sources        []string  `json:"sources"`
	SourcesContent []*string `json:"sourcesContent"`
	Names          []string  `json:"names"`
	Mappings       string    `json:"mappings"`
}

// original is a place in the source a map names.
type original struct {
	Source string
	Line   int // 0-based
	Column int // 0-based
	Name   string
}

func parseSourceMap(b []byte) (*sourceMap, error) {
	var m sourceMap
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m.Version != 3 || m.Mappings == "" {
		return nil, errors.New("not a version 3 source map with mappings")
	}
	return &m, nil
}

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// vlq reads one segment's values: base64 VLQ, the sign in the lowest bit.
func vlq(seg string) ([]int, error) {
	var out []int
	v, shift := 0, 0
	for i := 0; i < len(seg); i++ {
		d := strings.IndexByte(b64, seg[i])
		if d < 0 {
			return nil, errors.New("a mapping holds a character that is not base64")
		}
		v += (d & 31) << shift
		if d&32 != 0 {
			shift += 5
			if shift > 30 {
				return nil, errors.New("a mapping's number is too long")
			}
			continue
		}
		n := v >> 1
		if v&1 != 0 {
			n = -n
		}
		out = append(out, n)
		v, shift = 0, 0
	}
	if shift != 0 {
		return nil, errors.New("a mapping ends inside a number")
	}
	return out, nil
}

// lookup returns the original place of the generated line and column
// (both 0-based): the last segment of the line at or before the column.
// The source, line, column and name fields are deltas across the whole
// mappings, so every line before is read.
func (m *sourceMap) lookup(line, col int) (original, bool) {
	src, oline, ocol, name := 0, 0, 0, 0
	var best original
	found := false
	for l, text := range strings.Split(m.Mappings, ";") {
		if l > line {
			break
		}
		gcol := 0
		for _, seg := range strings.Split(text, ",") {
			if seg == "" {
				continue
			}
			f, err := vlq(seg)
			if err != nil || (len(f) != 1 && len(f) != 4 && len(f) != 5) {
				return original{}, false
			}
			gcol += f[0]
			if len(f) == 1 {
				continue
			}
			src, oline, ocol = src+f[1], oline+f[2], ocol+f[3]
			nm := ""
			if len(f) == 5 {
				name += f[4]
				if name >= 0 && name < len(m.Names) {
					nm = m.Names[name]
				}
			}
			if l == line && gcol <= col && src >= 0 && src < len(m.Sources) {
				best, found = original{Source: m.Sources[src], Line: oline, Column: ocol, Name: nm}, true
			}
		}
	}
	if found && m.SourceRoot != "" && !strings.Contains(best.Source, "://") {
		best.Source = strings.TrimSuffix(m.SourceRoot, "/") + "/" + strings.TrimPrefix(best.Source, "/")
	}
	return best, found
}

// content is the source's text the map carries, or "".
func (m *sourceMap) content(source string) string {
	for i, s := range m.Sources {
		if (s == source || strings.HasSuffix(source, "/"+strings.TrimPrefix(s, "/"))) && i < len(m.SourcesContent) && m.SourcesContent[i] != nil {
			return *m.SourcesContent[i]
		}
	}
	return ""
}

// funcDecl finds a function's name where it is declared: function f,
// const f = (…) => / function, a method f(…) {.
var funcDecl = lazyre.New(`(?:function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[(<])|(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>))|(?:^\s*(?:(?:public|private|protected|static|async)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]+)?\{)`)

// enclosing names the function the line is in, reading the source up
// from it (a heuristic on the text: the nearest declaration above whose
// body has not closed before the line), or "".
func enclosing(src string, line int) string {
	lines := strings.Split(src, "\n")
	if line >= len(lines) {
		return ""
	}
	depth := 0
	for i := line; i >= 0 && i > line-200; i-- {
		text := lines[i]
		if i < line {
			depth += strings.Count(text, "}") - strings.Count(text, "{")
		}
		if depth > 0 {
			continue
		}
		if sm := funcDecl.FindStringSubmatch(text); sm != nil {
			for _, n := range sm[1:] {
				switch n {
				case "", "if", "for", "while", "switch", "catch", "return":
					continue
				}
				return n
			}
		}
		if depth < 0 {
			depth = 0
		}
	}
	return ""
}
