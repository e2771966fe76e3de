package discover

import "testing"

// TestRobotsPrecedence holds the crawl to RFC 9309: Allow as well as
// Disallow, the longest (most specific) match wins, "*" and "$" in rules,
// a query is part of what is matched, and waymark's own group before the
// group for every robot. The old reader took Disallow lines of the "*"
// group only, so an Allow carved out of a Disallow was skipped and
// waymark's own group was ignored.
func TestRobotsPrecedence(t *testing.T) {
	body := `User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Disallow: /shop/*/cart
Allow: /shop/*/cart/view
Disallow: /*?session=
Allow: /a*
Disallow: /a.b

User-agent: Googlebot
Disallow: /g/

User-agent: waymark
Disallow: /only-waymark/
Allow: /
`
	star := parseRobots([]byte(body), "somebot")
	for p, want := range map[string]bool{
		"/private/x":            true,
		"/private/press/2026":   false, // Allow, longer than the Disallow
		"/doc/a.pdf":            true,
		"/doc/a.pdfx":           false, // "$" anchors
		"/shop/lamps/cart":      true,  // "*" within
		"/shop/lamps/cart/view": false,
		"/list?session=42":      true, // the query is matched
		"/a.b":                  true, // Disallow /a.b is longer than Allow /a*
		"/a.c":                  false,
		"/g/x":                  false, // Googlebot's group is not ours
		"/":                     false,
	} {
		if got := star.disallowed(p); got != want {
			t.Errorf("as another robot: disallowed(%s) = %v, want %v", p, got, want)
		}
	}
	own := parseRobots([]byte(body), "waymark")
	for p, want := range map[string]bool{
		"/only-waymark/x": true,
		"/private/x":      false, // waymark's group replaces the group for every robot
	} {
		if got := own.disallowed(p); got != want {
			t.Errorf("as waymark: disallowed(%s) = %v, want %v", p, got, want)
		}
	}
}
