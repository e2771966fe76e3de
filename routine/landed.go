package routine

import (
	"net/url"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Where a goto lands, decided once for both recorders and for replay (see
// FORMAT.md, "Where a goto landed"):
//
//   - the path always counts, compared unescaped and with a trailing
//     slash ignored (/caf%C3%A9/ is /café);
//   - a query parameter counts when it was in the goto's own URL and the
//     page it landed on kept it with the same value (the search of
//     /search?q=lamp), unless it is a tracking parameter (utm_*, gclid, …);
//     a replay expects it with the value of its own URL, so a parameter
//     filled from a variable is compared with the variable's value;
//   - parameters the site added (a page number, a session id), the host,
//     and the fragment do not count.

// SignIn reports whether a page's notices say it is a sign-in page. The
// driver decides it (internal/notice); recorders and replay read its
// notice rather than looking at the page again.
func SignIn(notices []calls.Notice) bool {
	for _, n := range notices {
		if n.Kind == calls.NoticeSignIn {
			return true
		}
	}
	return false
}

// LandedAt is where a goto of gotoURL arrived: the page info of the page it
// landed on and that page's notices.
func LandedAt(gotoURL string, info *calls.PageInfo, notices []calls.Notice) *Landed {
	l := &Landed{Path: PagePath(info.URL), Title: info.Title, Status: info.Status, SignIn: SignIn(notices)}
	asked := queryOf(gotoURL)
	got := queryOf(info.URL)
	kept := url.Values{}
	for name, vals := range asked {
		if !tracking(name) && slices.Equal(got[name], vals) {
			kept[name] = vals
		}
	}
	l.Query = kept.Encode() // sorted by name
	return l
}

// Arrived reports whether a replayed goto of gotoURL (its variables
// filled in) that landed on landedURL arrived where the goto recorded as l
// did; without l, at gotoURL's own path. got and want say where, for a
// message: the path and the parameters that count.
func Arrived(l *Landed, gotoURL, landedURL string) (ok bool, got, want string) {
	wantPath := PagePath(gotoURL)
	var names []string
	if l != nil {
		var recorded url.Values
		wantPath, recorded = splitLanded(l)
		asked := queryOf(gotoURL)
		for name := range recorded {
			if _, ok := asked[name]; ok && !tracking(name) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	asked, landed := queryOf(gotoURL), queryOf(landedURL)
	ok = samePath(PagePath(landedURL), wantPath)
	wq, gq := url.Values{}, url.Values{}
	for _, name := range names {
		wq[name] = asked[name]
		if v, has := landed[name]; has {
			gq[name] = v
		}
		ok = ok && slices.Equal(asked[name], landed[name])
	}
	return ok, withQuery(PagePath(landedURL), gq), withQuery(wantPath, wq)
}

// splitLanded reads a recorded landing: its path, and the parameters that
// count. Routines recorded by the agent loop before Query existed hold
// them in Path ("/search?q=lamp"); by hand, the path unescaped ("/a b").
func splitLanded(l *Landed) (string, url.Values) {
	q, _ := url.ParseQuery(l.Query)
	p := l.Path
	if path, query, found := strings.Cut(p, "?"); found {
		p = path
		if old, err := url.ParseQuery(query); err == nil {
			for name, vals := range old {
				q[name] = vals
			}
		}
	}
	return p, q
}

// PagePath is a URL's path as the address bar shows it (escaped), "/"
// when it has none.
func PagePath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "/"
	}
	if p := u.EscapedPath(); p != "" {
		return p
	}
	return "/"
}

// samePath compares two paths unescaped, a trailing slash ignored.
func samePath(a, b string) bool {
	return unescape(a) == unescape(b)
}

func unescape(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	if p = strings.TrimSuffix(p, "/"); p == "" {
		return "/"
	}
	return p
}

func queryOf(raw string) url.Values {
	u, err := url.Parse(raw)
	if err != nil {
		return url.Values{}
	}
	q, _ := url.ParseQuery(u.RawQuery)
	return q
}

func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// trackingParams are query parameters that say where a visitor came from,
// never what the page shows.
var trackingParams = []string{"gclid", "dclid", "fbclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "_ga", "_gl"}

func tracking(name string) bool {
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "utm_") || slices.Contains(trackingParams, name)
}
