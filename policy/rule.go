package policy

import (
	"fmt"
	"net/url"
	"path"
	"strings"
)

// rule is one parsed Allow or Block entry.
type rule struct {
	text   string // as written, for messages
	host   string // exact host, or a glob with '*'
	scheme string // URL prefixes only
	port   string // URL prefixes only, defaulted from the scheme
	path   string // URL prefixes only, at least "/"
}

func parseRules(list string, entries []string) ([]rule, error) {
	rules := make([]rule, 0, len(entries))
	for _, e := range entries {
		r, err := parseRule(e)
		if err != nil {
			return nil, fmt.Errorf("policy: %s rule %q: %w", list, e, err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func parseRule(entry string) (rule, error) {
	s := strings.TrimSpace(entry)
	if s == "" {
		return rule{}, fmt.Errorf("empty rule")
	}
	if strings.Contains(s, "://") {
		return parsePrefix(s)
	}
	if strings.ContainsAny(s, "/?#") {
		return rule{}, fmt.Errorf("a host rule has no path; write a URL prefix like \"https://%s\"", s)
	}
	h, err := parseHostPattern(s)
	if err != nil {
		return rule{}, err
	}
	return rule{text: s, host: h}, nil
}

// parseHostPattern checks and normalises a host or host glob.
func parseHostPattern(s string) (string, error) {
	if s == "*" {
		return s, nil
	}
	if strings.Contains(s, ":") && !strings.HasPrefix(s, "[") && strings.Count(s, ":") == 1 {
		return "", fmt.Errorf("a host rule has no port; write a URL prefix like \"http://%s/\"", s)
	}
	if !strings.Contains(s, "*") {
		h, _, err := canonHost(s)
		if err != nil {
			return "", fmt.Errorf("not a host name, IP address or glob")
		}
		if err := checkHostChars(h); err != nil {
			return "", err
		}
		return h, nil
	}
	h := strings.TrimSuffix(strings.ToLower(s), ".")
	if strings.Contains(h, ":") {
		return "", fmt.Errorf("an IP address cannot be a glob")
	}
	if err := checkHostChars(h); err != nil {
		return "", err
	}
	if strings.Contains(h, "**") {
		return "", fmt.Errorf("\"**\" means nothing more than \"*\"; write one")
	}
	return h, nil
}

func checkHostChars(h string) error {
	for _, c := range h {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '.', c == '_', c == '*', c == ':':
		case c > 127:
			return fmt.Errorf("write a non-ASCII host in its punycode form (xn--…)")
		default:
			return fmt.Errorf("%q cannot appear in a host", c)
		}
	}
	return nil
}

// defaultPorts are the ports a URL without one uses.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}

func parsePrefix(s string) (rule, error) {
	// A '*' in the host is not valid URL syntax for net/url; swap it out
	// while parsing.
	const star = "wildcard-star-"
	u, err := url.Parse(strings.ReplaceAll(s, "*", star))
	if err != nil {
		return rule{}, fmt.Errorf("not a URL: %v", err)
	}
	scheme := strings.ToLower(u.Scheme)
	if _, ok := defaultPorts[scheme]; !ok {
		return rule{}, fmt.Errorf("a URL prefix must start with http://, https://, ws:// or wss://")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return rule{}, fmt.Errorf("a URL prefix has no user, query or fragment")
	}
	if u.Hostname() == "" {
		return rule{}, fmt.Errorf("a URL prefix needs a host")
	}
	host, err := parseHostPattern(strings.ReplaceAll(u.Hostname(), star, "*"))
	if err != nil {
		return rule{}, err
	}
	if strings.Contains(u.Path, star) {
		return rule{}, fmt.Errorf("a URL prefix matches paths by prefix; leave out the '*'")
	}
	port := u.Port()
	if port == "" {
		port = defaultPorts[scheme]
	}
	p := cleanPath(u.Path)
	return rule{text: s, host: host, scheme: scheme, port: port, path: p}, nil
}

// cleanPath removes dot segments, keeping a trailing slash, so that
// "/app/../admin" is judged as the "/admin" the server will see.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	c := path.Clean("/" + p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// matchHost reports whether canonical host h matches the rule's host.
func (r rule) matchHost(h string) bool {
	if r.host == "*" {
		return true
	}
	if !strings.Contains(r.host, "*") {
		return h == r.host
	}
	return glob(r.host, h)
}

// match reports whether the URL parts match the rule.
func (r rule) match(scheme, host, port, p string) bool {
	if !r.matchHost(host) {
		return false
	}
	if r.scheme == "" {
		return true
	}
	if scheme != r.scheme || port != r.port {
		return false
	}
	if p == r.path || strings.HasSuffix(r.path, "/") && strings.HasPrefix(p, r.path) {
		return true
	}
	return strings.HasPrefix(p, r.path+"/")
}

// glob matches s against pattern, where '*' matches any run of characters
// (dots included) and nothing else is special.
func glob(pattern, s string) bool {
	px, sx := 0, 0
	starP, starS := -1, 0
	for sx < len(s) {
		switch {
		case px < len(pattern) && pattern[px] == '*':
			starP, starS = px, sx
			px++
		case px < len(pattern) && pattern[px] == s[sx]:
			px++
			sx++
		case starP >= 0:
			starS++
			px, sx = starP+1, starS
		default:
			return false
		}
	}
	for px < len(pattern) && pattern[px] == '*' {
		px++
	}
	return px == len(pattern)
}
