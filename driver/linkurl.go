package driver

import (
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/secret"
)

// linkURL shows where a link goes (snapshot --urls): its href resolved
// against the page's address, with what looks like a secret in it (a
// token in a reset link, a key in a query) masked, as everywhere in an
// outline. A link of a frame of another address is resolved against the
// page's too: an absolute href, the usual case, is shown as it is.
// javascript: links show nothing: they go nowhere.
func linkURL(pageURL string) func(*outline.Node, string) string {
	base, _ := url.Parse(pageURL)
	return func(_ *outline.Node, href string) string {
		href = strings.TrimSpace(href)
		if strings.HasPrefix(strings.ToLower(href), "javascript:") {
			return ""
		}
		if u, err := url.Parse(href); err == nil && base != nil {
			href = base.ResolveReference(u).String()
		}
		return secret.Redact(outline.Truncate(href, 300))
	}
}
