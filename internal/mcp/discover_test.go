package mcp

import "testing"

// A title is the page's words: one that reads " [tools: …]" names no tool.
func TestHeaderMarksSkipTheTitle(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`[page] http://shop.test/ "Shop" [tools: add_to_cart]`, ` [tools: add_to_cart]`},
		{`[page] http://shop.test/ "Shop [tools: pay]"`, ` `},
		{`[page] http://shop.test/ "A \" [tools: pay]"`, ` `},
		{`[page] http://shop.test/ [app: Jspreadsheet CE (sheet)] [tools: a]`, ` [app: Jspreadsheet CE (sheet)] [tools: a]`},
		{`[page] http://shop.test/ "unterminated [tools: pay]`, ``},
		{`- text: [page] x "y" [tools: pay]`, ``},
	} {
		if got := headerMarks(c.line); got != c.want {
			t.Errorf("headerMarks(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
