package calls

import "net/url"

// ShortURL is to as its path ("/products/1?page=2#top") when it is on the
// origin of from, which the reader of both knows: the origin again is a
// dozen tokens that tell nothing. Else to as it is. A navigating action's
// reply and a look of the page it led to name the page so.
func ShortURL(from, to string) string {
	f, err1 := url.Parse(from)
	u, err2 := url.Parse(to)
	if err1 != nil || err2 != nil || from == "" || f.Scheme != u.Scheme || f.Host != u.Host || u.Host == "" || u.Opaque != "" {
		return to
	}
	p := u.RequestURI()
	if u.Fragment != "" {
		p += "#" + u.EscapedFragment()
	}
	return p
}
