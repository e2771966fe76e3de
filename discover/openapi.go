package discover

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// maxEndpoints bounds the endpoints taken from one OpenAPI description.
const maxEndpoints = 200

// openAPICandidates finds the site's OpenAPI description and returns its
// JSON GET endpoints. Where it looks, in order: a link of the page
// (rel="service-desc", RFC 8631), the service-desc of
// /.well-known/api-catalog (RFC 9727), /openapi.json. A description is
// OpenAPI 3.x or Swagger 2, in JSON or YAML (openapi_read.go); one that
// cannot be read is reported as skipped.
func openAPICandidates(ctx context.Context, c *client, base *url.URL, p *page) ([]Candidate, error) {
	var tries []string
	for _, l := range p.LinkRels {
		if hasWord(l.Rel, "service-desc") && l.Href != "" {
			tries = append(tries, l.Href)
		}
	}
	if len(tries) == 0 {
		d, err := c.get(ctx, c.origin.JoinPath("/.well-known/api-catalog"))
		if err := fatal(ctx, err); err != nil {
			return nil, err
		}
		if d != nil && d.ok() {
			tries = append(tries, catalogDescs(d.Body)...)
		}
	}
	if len(tries) == 0 {
		tries = []string{"/openapi.json"}
	}
	for _, t := range tries[:min(len(tries), 3)] {
		u, why := c.resolve(base, t)
		if why != "" {
			if u != nil {
				c.skip(u.String(), "an OpenAPI description on "+why)
			}
			continue
		}
		d, err := c.get(ctx, u)
		if err := fatal(ctx, err); err != nil {
			return nil, err
		}
		if d == nil || !d.ok() || looksHTML(d) {
			continue
		}
		cands, err := parseOpenAPI(c, d.URL, d.Body)
		if err != nil {
			c.skip(u.String(), err.Error())
			continue
		}
		return cands, nil
	}
	return nil, nil
}

// catalogDescs reads the service-desc links of an RFC 9727 linkset.
func catalogDescs(b []byte) []string {
	var ls struct {
		Linkset []map[string]json.RawMessage `json:"linkset"`
	}
	if json.Unmarshal(b, &ls) != nil {
		return nil
	}
	var out []string
	for _, set := range ls.Linkset {
		var links []struct {
			Href string `json:"href"`
		}
		if json.Unmarshal(set["service-desc"], &links) == nil {
			for _, l := range links {
				if l.Href != "" {
					out = append(out, l.Href)
				}
			}
		}
	}
	return out
}

var pathParam = lazyre.New(`\{([^}/]{1,100})\}`)

// parseOpenAPI reads the JSON GET endpoints of an OpenAPI 3.x or Swagger 2
// description (JSON or YAML) found at at.
func parseOpenAPI(c *client, at *url.URL, b []byte) ([]Candidate, error) {
	api, err := readOpenAPI(b)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if api.server != "" {
		su, err := url.Parse(api.server)
		if err == nil {
			su = at.ResolveReference(su)
			if su.Host != at.Host || su.Scheme != at.Scheme {
				return nil, fmt.Errorf("its server %s is another origin", su)
			}
			prefix = strings.TrimSuffix(su.Path, "/")
		}
	}
	var out []Candidate
	src := "OpenAPI " + at.Path
	for _, op := range api.gets {
		if !op.json {
			continue
		}
		full := prefix + op.path
		if _, why := c.resolve(at, pathParam.ReplaceAllString(full, "x")); why != "" {
			continue // an acting path, or one the policy refuses: never proposed
		}
		var params []string
		for _, m := range pathParam.FindAllStringSubmatch(op.path, -1) {
			params = append(params, m[1])
		}
		params = append(params, op.query...)
		what := cmp.Or(op.id, op.summary)
		s := src + ": GET " + op.path
		if what != "" {
			s += " (" + what + ")"
		}
		out = append(out, Candidate{URL: at.Scheme + "://" + at.Host + full, Kind: "openapi", Format: "json", Source: s, Params: params, Summary: op.summary})
		if len(out) >= maxEndpoints {
			break
		}
	}
	return out, nil
}
