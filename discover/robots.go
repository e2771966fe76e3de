package discover

import "github.com/temoto/robotstxt"

// robotsAgent is the product token the crawl reads robots.txt as: a group
// for waymark, when a site writes one, comes before the group for every
// robot ("*").
const robotsAgent = "waymark"

// robots is what discovery reads from robots.txt: the sitemaps it names,
// and the rules of the group that applies to waymark (the crawl honours
// them).
type robots struct {
	Sitemaps []string
	group    *robotstxt.Group
}

// parseRobots reads robots.txt with github.com/temoto/robotstxt, which
// keeps RFC 9309's precedence: Allow as well as Disallow, the most
// specific (longest) match wins, "*" and "$" in rules, and the group of
// the most specific user agent named. The hand-written reader this
// replaces took the Disallow lines of the "*" group only. One difference
// from the RFC is the library's: an Allow and a Disallow of the same
// length go to the one written first (the RFC prefers the Allow).
// At most 100 sitemaps are kept.
func parseRobots(b []byte, agent string) robots {
	var r robots
	data, err := robotstxt.FromBytes(b)
	if err != nil {
		return r // an unreadable robots.txt asks nothing
	}
	r.Sitemaps = data.Sitemaps
	if len(r.Sitemaps) > 100 {
		r.Sitemaps = r.Sitemaps[:100]
	}
	r.group = data.FindGroup(agent)
	return r
}

// disallowed says whether robots.txt asks waymark to leave uri alone: its
// path and query, escaped as they go on the wire (url.URL.RequestURI).
func (r robots) disallowed(uri string) bool {
	return r.group != nil && !r.group.Test(uri)
}
