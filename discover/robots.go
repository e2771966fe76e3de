package discover

import (
	"bufio"
	"bytes"
	"strings"
)

// robots is what discovery reads from robots.txt: the sitemaps it names,
// and the paths it asks every robot to leave alone (the crawl honours
// them).
type robots struct {
	Sitemaps []string
	Disallow []string
}

// parseRobots reads the Sitemap lines and the Disallow lines of the
// groups for every user agent ("*"), at most 100 of each.
func parseRobots(b []byte) robots {
	var r robots
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	star, inAgents := false, false
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		switch key {
		case "sitemap":
			if val != "" && len(r.Sitemaps) < 100 {
				r.Sitemaps = append(r.Sitemaps, val)
			}
		case "user-agent":
			if !inAgents {
				star = false // a new group starts
			}
			inAgents = true
			if val == "*" {
				star = true
			}
		case "disallow":
			inAgents = false
			if star && val != "" && len(r.Disallow) < 100 {
				r.Disallow = append(r.Disallow, val)
			}
		default:
			inAgents = false
		}
	}
	return r
}

// disallowed says whether robots.txt asks robots to leave path alone
// (prefix rules; "*" and "$" as in the robots exclusion standard).
func (r robots) disallowed(path string) bool {
	for _, d := range r.Disallow {
		if robotsMatch(d, path) {
			return true
		}
	}
	return false
}

func robotsMatch(rule, path string) bool {
	anchored := strings.HasSuffix(rule, "$")
	rule = strings.TrimSuffix(rule, "$")
	parts := strings.Split(rule, "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	rest := path[len(parts[0]):]
	for _, p := range parts[1:] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return !anchored || rest == "" || strings.HasSuffix(rule, "*")
}
