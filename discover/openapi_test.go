package discover

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
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

// TestOpenAPIAsSitesWriteIt: the descriptions sites serve put responses
// and parameters behind $ref, write YAML, and say 3.1; each endpoint is
// found with what a call needs. A server of another origin, in Swagger
// 2's host too, is refused.
func TestOpenAPIAsSitesWriteIt(t *testing.T) {
	refs := `{"openapi":"3.0.3","servers":[{"url":"/api"}],
	 "paths":{
	  "/orders":{"parameters":[{"$ref":"#/components/parameters/Page"}],
	    "get":{"operationId":"listOrders","parameters":[{"$ref":"#/components/parameters/Status"}],
	           "responses":{"200":{"$ref":"#/components/responses/Orders"}}}},
	  "/orders/{id}":{"get":{"responses":{"2XX":{"$ref":"#/components/responses/Orders"}}}},
	  "/report":{"get":{"responses":{"200":{"content":{"text/csv":{}}}}}}},
	 "components":{
	  "parameters":{"Page":{"name":"page","in":"query","required":false},
	                "Status":{"name":"status","in":"query","required":true}},
	  "responses":{"Orders":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Order"}}}}},
	  "schemas":{"Order":{"type":"object","properties":{"next":{"$ref":"#/components/schemas/Order"}}}}}}`
	yamlDesc := "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /items:\n    get:\n      summary: Items\n      parameters:\n        - {name: q, in: query, required: true, schema: {type: [string, 'null']}}\n      responses:\n        '200':\n          content:\n            application/json:\n              schema: {type: array}\n"
	swaggerOther := `{"swagger":"2.0","host":"evil.example","basePath":"/v1","produces":["application/json"],"paths":{"/pets":{"get":{}}}}`
	swaggerOwn := `{"swagger":"2.0","host":"api.example","basePath":"/v1","produces":["application/json"],"paths":{"/pets":{"get":{"parameters":[{"name":"limit","in":"query","required":true,"type":"integer"}]}}}}`

	type found struct {
		url    string
		params []string
	}
	read := func(t *testing.T, body string) ([]found, error) {
		t.Helper()
		site := &fakeSite{pages: map[string]string{"/spec": body}}
		markup := []byte(`<link rel="service-desc" href="/spec">`)
		cands, err := Candidates(context.Background(), site, "https://api.example/", markup, Options{})
		var out []found
		for _, c := range cands {
			if c.Kind == "openapi" {
				out = append(out, found{c.URL, c.Params})
			}
		}
		return out, err
	}
	for _, tc := range []struct {
		name, body string
		want       []found
	}{
		{"responses and parameters behind $ref", refs, []found{
			{"https://api.example/api/orders", []string{"status"}},
			{"https://api.example/api/orders/{id}", []string{"id"}},
		}},
		{"YAML, OpenAPI 3.1", yamlDesc, []found{{"https://api.example/items", []string{"q"}}}},
		{"Swagger 2 on another host", swaggerOther, nil},
		{"Swagger 2 on this host", swaggerOwn, []found{{"https://api.example/v1/pets", []string{"limit"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := read(t, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tc.want, func(a, b found) bool { return a.url == b.url && slices.Equal(a.params, b.params) }) {
				t.Errorf("found %v, want %v", got, tc.want)
			}
		})
	}
}

// TestOpenAPIReadsNothingElse: a description's $ref to another file or
// URL is never fetched (only the browser's own requests may reach a
// site), and the reader prints nothing: stdout is an MCP server's
// protocol channel.
func TestOpenAPIReadsNothingElse(t *testing.T) {
	var hits atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"description":"ok","content":{"application/json":{}}}`)
	}))
	defer elsewhere.Close()
	desc := `{"openapi":"3.0.0","paths":{
	  "/a":{"get":{"responses":{"200":{"$ref":"` + elsewhere.URL + `/r.json"}}}},
	  "/b":{"get":{"responses":{"200":{"$ref":"other.json#/R"}}}},
	  "/c":{"get":{"responses":{"200":{"$ref":"#/components/responses/Missing"}}}},
	  "/d":{"get":{"responses":{"200":{"content":{"application/json":{}}}}}}}}`

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	site := &fakeSite{pages: map[string]string{"/openapi.json": desc}}
	cands, cerr := Candidates(context.Background(), site, "https://api.example/", []byte(`<title>x</title>`), Options{})
	os.Stdout = stdout
	w.Close()
	printed, _ := io.ReadAll(r)
	if cerr != nil {
		t.Fatal(cerr)
	}
	if len(printed) > 0 {
		t.Errorf("reading the description printed to stdout: %.300s", printed)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the description's $ref to %s was fetched %d times", elsewhere.URL, n)
	}
	var urls []string
	for _, c := range cands {
		if c.Kind == "openapi" {
			urls = append(urls, c.URL)
		}
	}
	if !slices.Contains(urls, "https://api.example/d") {
		t.Errorf("the endpoint that needs no other file is lost: %q", urls)
	}
	if slices.Contains(site.asked, "/other.json") || slices.Contains(site.asked, "/r.json") {
		t.Errorf("asked the site for a referenced file: %q", site.asked)
	}
}
