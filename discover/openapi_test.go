package discover

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// fakeSite answers in-tab fetches from a map of paths, counting them: the
// seam between discovery and the browser.
type fakeSite struct {
	pages map[string]string
	asked []string
}

func (f *fakeSite) Fetch(_ context.Context, req calls.FetchRequest) (*calls.FetchResult, error) {
	path := strings.TrimPrefix(req.URL, "https://api.example")
	f.asked = append(f.asked, path)
	body, ok := f.pages[path]
	if !ok {
		return &calls.FetchResult{Status: 404, URL: req.URL}, nil
	}
	return &calls.FetchResult{Status: 200, URL: req.URL, Body: body, Headers: []calls.Header{{Name: "content-type", Value: "application/json"}}}, nil
}

// TestOpenAPIWhereFound: an OpenAPI description named by the page's
// rel=service-desc, or by /.well-known/api-catalog (RFC 9727), is read
// before /openapi.json is tried; a Swagger 2 description's produces list
// says which endpoints answer JSON; a server on another origin is refused.
func TestOpenAPIWhereFound(t *testing.T) {
	swagger := `{"swagger":"2.0","basePath":"/v2","produces":["application/json"],"paths":{"/pets":{"get":{"operationId":"listPets"}},"/pets/{petId}":{"get":{"parameters":[{"name":"petId","in":"path","required":true}]},"delete":{}},"/logout":{"get":{}}}}`
	want := []string{"https://api.example/v2/pets", "https://api.example/v2/pets/{petId}"}
	urls := func(cs []Candidate) []string {
		var out []string
		for _, c := range cs {
			if c.Kind == "openapi" {
				out = append(out, c.URL)
			}
		}
		return out
	}

	site := &fakeSite{pages: map[string]string{"/docs/api.json": swagger}}
	markup := []byte(`<link rel="service-desc" href="/docs/api.json" type="application/openapi+json">`)
	cands, err := Candidates(context.Background(), site, "https://api.example/", markup, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := urls(cands); !slices.Equal(got, want) {
		t.Errorf("service-desc: %q, want %q", got, want)
	}
	if !slices.Equal(site.asked, []string{"/docs/api.json"}) {
		t.Errorf("asked %q", site.asked)
	}

	site = &fakeSite{pages: map[string]string{
		"/.well-known/api-catalog": `{"linkset":[{"anchor":"https://api.example/v2","service-desc":[{"href":"https://api.example/specs/v2.json"}]}]}`,
		"/specs/v2.json":           swagger,
	}}
	cands, err = Candidates(context.Background(), site, "https://api.example/", []byte(`<title>x</title>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := urls(cands); !slices.Equal(got, want) {
		t.Errorf("api-catalog: %q, want %q", got, want)
	}
	if c := cands[1]; !slices.Equal(c.Params, []string{"petId"}) {
		t.Errorf("params %q", c.Params)
	}

	site = &fakeSite{pages: map[string]string{"/openapi.json": `{"openapi":"3.0.0","servers":[{"url":"https://evil.example/api"}],"paths":{"/x":{"get":{"responses":{"200":{"content":{"application/json":{}}}}}}}}`}}
	cands, err = Candidates(context.Background(), site, "https://api.example/", []byte(`<title>x</title>`), Options{})
	if err != nil || len(urls(cands)) != 0 {
		t.Errorf("a description whose server is another origin: %q %v", urls(cands), err)
	}
}
