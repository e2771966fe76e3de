package openai

import (
	"encoding/json"
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

var (
	// thinking is the reasoning some local models (DeepSeek-R1, Qwen3)
	// write before their answer; it may hold braces of its own.
	thinking = lazyre.New(`(?s)<think>.*?</think>`)
	// fenced is a Markdown code block, with or without a language.
	fenced = lazyre.New("(?s)```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```")
)

// lenientJSON finds the JSON value in a model's text: the whole text if it
// is JSON, else the first code block that is, else the first balanced
// {...} or [...] that is. The value is returned as the model wrote it.
func lenientJSON(text string) (json.RawMessage, bool) {
	text = strings.TrimSpace(thinking.ReplaceAllString(text, ""))
	if text != "" && json.Valid([]byte(text)) {
		return json.RawMessage(text), true
	}
	for _, m := range fenced.FindAllStringSubmatch(text, -1) {
		if block := strings.TrimSpace(m[1]); block != "" && json.Valid([]byte(block)) {
			return json.RawMessage(block), true
		}
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		if end, ok := balancedEnd(text, i); ok && json.Valid([]byte(text[i:end])) {
			return json.RawMessage(text[i:end]), true
		}
	}
	return nil, false
}

// balancedEnd returns the index just past the bracket that closes the one
// at start, skipping brackets inside JSON strings. It does not check that
// the brackets match in kind; the caller validates the result.
func balancedEnd(s string, start int) (int, bool) {
	depth, inString, escaped := 0, false, false
	for j := start; j < len(s); j++ {
		c := s[j]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		}
	}
	return 0, false
}
