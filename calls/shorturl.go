package calls

import (
	"net/url"
	"strings"
)

// ShortURL is to as its path ("/products/1?page=2#top") when it is on the
// origin of from, which the reader of both knows: the origin again is a
// dozen tokens that tell nothing. Else to as it is. A navigating action's
// reply and a look of the page it led to name the page so. A path that
// reads as an address on another site is not shortened.
func ShortURL(from, to string) string {
	f, err1 := url.Parse(from)
	u, err2 := url.Parse(to)
	if err1 != nil || err2 != nil || from == "" || f.Scheme != u.Scheme || f.Host != u.Host || u.Host == "" || u.Opaque != "" {
		return to
	}
	p := u.RequestURI()
	if strings.HasPrefix(p, "//") {
		// "//bank.example/login" reads as another site (a
		// scheme-relative address), and a page may pick its own path.
		return to
	}
	if u.Fragment != "" {
		p += "#" + u.EscapedFragment()
	}
	return p
}
