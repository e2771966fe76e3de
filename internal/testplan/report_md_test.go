package testplan

import (
	"regexp"
	"strings"
	"testing"
)

// TestMarkdownQuotesThePage: the report a person opens quotes what the
// page wrote (an error, a console line, a failed request) as text: no
// HTML of the page's, no link of the page's, and no new line that ends a
// code span or a table row so that what follows is read as Markdown.
func TestMarkdownQuotesThePage(t *testing.T) {
	hostile := "no element matches <img src=x onerror=alert(1)>\n<script>steal()</script> [help](javascript:alert(2)) ![x](http://evil.test/p.png)"
	console := "Uncaught `x`\n<img src=x onerror=alert(3)>\n| a | b |\n[click](javascript:alert(4))"
	rep := &Report{Plan: "plan <b>bold</b>", Scenarios: []ScenarioResult{{
		Name: "Buy <i>it</i>", Status: StatusFailed, Failure: hostile,
		Steps:          []StepResult{{Index: 1, Text: "click `Pay`\n<img src=y onerror=z>", Status: StatusFailed, Error: hostile, Hint: "<a href=javascript:x>here</a>"}},
		Console:        []string{console},
		FailedRequests: []string{"POST http://evil.test/\n<svg onload=alert(5)>"},
	}}}
	md := markdown(rep, nil)
	// HTML inside a code span is shown, not run: look at the rest.
	low := strings.ToLower(regexp.MustCompile("`[^`\n]*`").ReplaceAllString(md, "`code`"))
	for _, bad := range []string{"<img", "<script", "<svg", "<a ", "<b>", "<i>", "](javascript:", "](http://evil.test"} {
		if strings.Contains(low, bad) {
			t.Errorf("the report holds the page's %q:\n%s", bad, md)
		}
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "<") || strings.HasPrefix(l, "[") {
			t.Errorf("a line of the page's own starts the report's line %q", l)
		}
	}
	if !strings.Contains(md, "- console: `Uncaught 'x' <img src=x onerror=alert(3)> \\| a \\| b \\| [click](javascript:alert(4))`") {
		t.Errorf("the console line is not one code span:\n%s", md)
	}
	if !strings.Contains(md, "&lt;script&gt;steal\\(\\)&lt;/script&gt;") {
		t.Errorf("the error is not quoted as text:\n%s", md)
	}
}
