package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// maxEndpoints bounds the endpoints taken from one OpenAPI description.
const maxEndpoints = 200

// openAPICandidates finds the site's OpenAPI description and returns its
// JSON GET endpoints. Where it looks, in order: a link of the page
// (rel="service-desc", RFC 8631), the service-desc of
// /.well-known/api-catalog (RFC 9727), /openapi.json. JSON only: a YAML
// description is reported as skipped.
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

// openAPIDoc is the part of an OpenAPI 3 or Swagger 2 description used.
type openAPIDoc struct {
	OpenAPI  string `json:"openapi"`
	Swagger  string `json:"swagger"`
	BasePath string `json:"basePath"`
	Servers  []struct {
		URL string `json:"url"`
	} `json:"servers"`
	Produces []string                              `json:"produces"`
	Paths    map[string]map[string]json.RawMessage `json:"paths"`
}

type openAPIOp struct {
	OperationID string `json:"operationId"`
	Summary     string `json:"summary"`
	Produces    []string
	Parameters  []struct {
		Name     string `json:"name"`
		In       string `json:"in"`
		Required bool   `json:"required"`
	} `json:"parameters"`
	Responses map[string]struct {
		Content map[string]json.RawMessage `json:"content"`
	} `json:"responses"`
}

var pathParam = lazyre.New(`\{([^}/]{1,100})\}`)

func parseOpenAPI(c *client, at *url.URL, b []byte) ([]Candidate, error) {
	var doc openAPIDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("not a JSON OpenAPI description: %v", err)
	}
	if doc.OpenAPI == "" && doc.Swagger == "" {
		return nil, fmt.Errorf("not an OpenAPI description (no openapi or swagger version)")
	}
	prefix := strings.TrimSuffix(doc.BasePath, "/")
	if len(doc.Servers) > 0 {
		su, err := url.Parse(doc.Servers[0].URL)
		if err == nil {
			su = at.ResolveReference(su)
			if su.Host != at.Host || su.Scheme != at.Scheme {
				return nil, fmt.Errorf("its server %s is another origin", su)
			}
			prefix = strings.TrimSuffix(su.Path, "/")
		}
	}
	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []Candidate
	src := "OpenAPI " + at.Path
	for _, path := range paths {
		raw, ok := doc.Paths[path]["get"]
		if !ok {
			continue
		}
		var op openAPIOp
		if json.Unmarshal(raw, &op) != nil || !jsonOp(doc, op) {
			continue
		}
		full := prefix + path
		if _, why := c.resolve(at, pathParam.ReplaceAllString(full, "x")); why != "" {
			continue // an acting path, or one the policy refuses: never proposed
		}
		var params []string
		for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
			params = append(params, m[1])
		}
		for _, p := range op.Parameters {
			if p.In == "query" && p.Required {
				params = append(params, p.Name)
			}
		}
		what := op.OperationID
		if what == "" {
			what = op.Summary
		}
		s := src + ": GET " + path
		if what != "" {
			s += " (" + what + ")"
		}
		out = append(out, Candidate{URL: at.Scheme + "://" + at.Host + full, Kind: "openapi", Format: "json", Source: s, Params: params, Summary: op.Summary})
		if len(out) >= maxEndpoints {
			break
		}
	}
	return out, nil
}

// jsonOp says whether op answers JSON: an OpenAPI 3 response content of a
// JSON media type, or a Swagger 2 produces list with one.
func jsonOp(doc openAPIDoc, op openAPIOp) bool {
	isJSON := func(t string) bool {
		t = strings.ToLower(t)
		return strings.Contains(t, "json")
	}
	for code, r := range op.Responses {
		if !strings.HasPrefix(code, "2") && code != "default" {
			continue
		}
		for t := range r.Content {
			if isJSON(t) {
				return true
			}
		}
	}
	if doc.Swagger != "" {
		prod := op.Produces
		if len(prod) == 0 {
			prod = doc.Produces
		}
		for _, t := range prod {
			if isJSON(t) {
				return true
			}
		}
	}
	return false
}
