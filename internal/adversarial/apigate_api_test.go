package adversarial

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/mcp"
	"github.com/waymark-dev/waymark/siteapi"
)

// Issue 27 item 2: an API call is a read. `waymark api call`, MCP
// api_call and replay's api step all reach the driver's CallAPI; what
// it sends that is not a read — a POST, PUT or PATCH, a GET whose words
// act, a redirect or a next page to one, a mutation under a recipe that
// claims a read — must reach no server without a person's approval.

// apiSite is a loopback site with a JSON API that counts every request
// (the harness's Server serves pages only; this one answers redirects
// and JSON).
type apiSite struct {
	*httptest.Server
	mu  sync.Mutex
	log []Request
}

func newAPISite(t *testing.T) *apiSite {
	t.Helper()
	a := &apiSite{}
	a.Server = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.Close)
	return a
}

const itemsJSON = `{"items":[{"title":"Lamp"},{"title":"Desk"}]%s}`

func (a *apiSite) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	a.mu.Lock()
	a.log = append(a.log, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: string(body), Header: r.Header.Clone()})
	a.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html><title>Shop</title><p>shop")
	case "/api/redirect":
		http.Redirect(w, r, "/account/logout", http.StatusFound)
	case "/api/paged":
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("page") == "3" {
			io.WriteString(w, `{"items":[]}`)
			return
		}
		io.WriteString(w, strings.Replace(itemsJSON, "%s", "", 1))
	case "/api/next":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, strings.Replace(itemsJSON, "%s", `,"next":"/cart/delete?all=1"`, 1))
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, strings.Replace(itemsJSON, "%s", "", 1))
	}
}

// acted counts what reached the site that is not the page or a read:
// any request but a GET, and any request to an acting path.
func (a *apiSite) acted() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, r := range a.log {
		if r.Method != http.MethodGet || slices.Contains([]string{"/account/logout", "/items/delete", "/cart/delete"}, r.Path) {
			out = append(out, r.Method+" "+r.Path+" "+r.Body)
		}
	}
	return out
}

func (a *apiSite) reset() {
	a.mu.Lock()
	a.log = nil
	a.mu.Unlock()
}

// recipe writes a recipe of the site calling path with method.
func (a *apiSite) recipe(t *testing.T, method, path string, edit func(r *siteapi.Recipe)) json.RawMessage {
	t.Helper()
	r := &siteapi.Recipe{Format: siteapi.Format, Site: a.URL, Page: a.URL + "/",
		Request: siteapi.Request{Method: method, URL: a.URL + path}, Rows: "/items", Fields: []siteapi.Field{{Name: "name", Path: "/title"}}}
	if edit != nil {
		edit(r)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// graphQL sets a recipe's body to a GraphQL document.
func graphQL(doc string) func(r *siteapi.Recipe) {
	return func(r *siteapi.Recipe) {
		r.Request.Body = []siteapi.Param{{Name: "/query", Source: siteapi.Source{From: siteapi.FromConst, Value: doc}}}
	}
}

// apiAttacks are the recipes whose call must not act unapproved.
var apiAttacks = []struct {
	name, method, path string
	edit               func(r *siteapi.Recipe)
}{
	{"POST", "POST", "/api/items", graphQL("mutation { emptyCart { ok } }")},
	{"PUT", "PUT", "/api/items", nil},
	{"PATCH", "PATCH", "/api/items", nil},
	{"GET logout", "GET", "/account/logout", nil},
	{"GET delete?id=1", "GET", "/items/delete", func(r *siteapi.Recipe) {
		r.Request.Query = []siteapi.Param{{Name: "id", Source: siteapi.Source{From: siteapi.FromConst, Value: "1"}}}
	}},
	{"read GET answered by a 302 to an acting path", "GET", "/api/redirect", nil},
	{"a list whose next link acts", "GET", "/api/next", func(r *siteapi.Recipe) {
		r.Pagination = &siteapi.Pagination{Kind: siteapi.PageNext, Next: "/next"}
	}},
	{"a recipe claiming read over a GraphQL mutation", "POST", "/graphql", func(r *siteapi.Recipe) {
		graphQL("mutation DeleteAccount { deleteAccount { ok } }")(r)
		r.Request.Read = "graphql-query"
	}},
}

// apiCallers are the ways in: the driver (the CLI's api call and
// replay's api step reach it over the daemon), and MCP api_call.
var apiCallers = []struct {
	name string
	call func(t *testing.T, s *driver.Session, ctx context.Context, recipe json.RawMessage, elicit bool) (string, error)
}{
	{"driver", func(t *testing.T, s *driver.Session, ctx context.Context, recipe json.RawMessage, _ bool) (string, error) {
		res, err := s.CallAPI(ctx, calls.APICallRequest{Recipe: recipe, Fresh: true})
		if err != nil {
			return "", err
		}
		return rowNames(res.Rows), nil
	}},
	{"mcp", mcpAPICall},
}

func rowNames(rows []map[string]any) string {
	var names []string
	for _, r := range rows {
		n, _ := r["name"].(string)
		names = append(names, n)
	}
	return strings.Join(names, ",")
}

func TestAPICallActsOnlyWithApproval(t *testing.T) {
	t.Parallel()
	held, total := 0, 0
	for _, via := range apiCallers {
		for _, c := range apiAttacks {
			total++
			ok := t.Run(via.name+"/"+c.name, func(t *testing.T) {
				site := newAPISite(t)
				s, ctx := session(t)
				if _, err := s.Open(ctx, calls.OpenRequest{URL: site.URL + "/"}); err != nil {
					t.Fatal(err)
				}
				site.reset()
				_, err := via.call(t, s, ctx, site.recipe(t, c.method, c.path, c.edit), false)
				if got := site.acted(); len(got) > 0 {
					t.Errorf("reached the server without approval: %q (call: %v)", got, err)
				}
				if via.name == "driver" {
					if a := approvalOf(err); a == nil || a.Token == "" || a.Sends == "" {
						t.Errorf("want needs_approval with a bound approval, got %v", err)
					}
				} else if err == nil || !strings.Contains(err.Error(), "needs approval") {
					t.Errorf("want the call refused for approval, got %v", err)
				}
			})
			if ok {
				held++
			}
		}
	}
	t.Logf("api calls that act: %d of %d held", held, total)
}

// TestAPICallApproved: approved by a person (the driver's approval sent
// back; MCP elicitation accepted), exactly the held request goes, once.
func TestAPICallApproved(t *testing.T) {
	t.Parallel()
	for _, via := range apiCallers {
		t.Run(via.name, func(t *testing.T) {
			site := newAPISite(t)
			s, ctx := session(t)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: site.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			recipe := site.recipe(t, "POST", "/api/items", graphQL("mutation { addToWishlist { ok } }"))
			site.reset()
			if via.name == "driver" {
				_, err := s.CallAPI(ctx, calls.APICallRequest{Recipe: recipe})
				a := approvalOf(err)
				if a == nil {
					t.Fatalf("want needs_approval, got %v", err)
				}
				if _, err := s.CallAPI(ctx, calls.APICallRequest{Recipe: recipe, Approve: a}); err != nil {
					t.Fatalf("approved: %v", err)
				}
				// The approval is used once.
				if _, err := s.CallAPI(ctx, calls.APICallRequest{Recipe: recipe, Approve: a}); approvalOf(err) != nil || err == nil {
					t.Errorf("the approval used again: %v", err)
				}
			} else if rows, err := via.call(t, s, ctx, recipe, true); err != nil || rows != "Lamp,Desk" {
				t.Fatalf("accepted: %q %v", rows, err)
			}
			if got := site.acted(); len(got) != 1 || !strings.HasPrefix(got[0], "POST /api/items") {
				t.Errorf("approved, the server got %q", got)
			}
		})
	}
}

// TestAPICallReads: reads go without asking: a GET list page by page, and
// a GraphQL query POST learned as a read.
func TestAPICallReads(t *testing.T) {
	t.Parallel()
	for _, via := range apiCallers {
		t.Run(via.name, func(t *testing.T) {
			site := newAPISite(t)
			s, ctx := session(t)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: site.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			paged := site.recipe(t, "GET", "/api/paged", func(r *siteapi.Recipe) {
				r.Pagination = &siteapi.Pagination{Kind: siteapi.PageNumber, Param: "page", Start: 1}
			})
			if rows, err := via.call(t, s, ctx, paged, false); err != nil || rows != "Lamp,Desk,Lamp,Desk" {
				t.Errorf("GET pages: %q %v", rows, err)
			}
			query := site.recipe(t, "POST", "/graphql", func(r *siteapi.Recipe) {
				graphQL("query Items($first: Int) { items(first: $first) { title } }")(r)
				r.Request.Read = "graphql-query"
			})
			site.reset()
			if rows, err := via.call(t, s, ctx, query, false); err != nil || rows != "Lamp,Desk" {
				t.Errorf("GraphQL query: %q %v", rows, err)
			}
			if got := site.acted(); len(got) != 1 {
				t.Errorf("the query POST reached the server %d times", len(got))
			}
		})
	}
}

// sessionCaller serves MCP's api_call from one driver session (the seam
// the daemon fills).
type sessionCaller struct{ s *driver.Session }

func (c sessionCaller) Call(ctx context.Context, _ string, method string, params, result any) error {
	if method != calls.MethodAPICall {
		return calls.Errorf(calls.ErrBadInput, "", "%s is not served here", method)
	}
	res, err := c.s.CallAPI(ctx, params.(calls.APICallRequest))
	if err != nil {
		return err
	}
	b, _ := json.Marshal(res)
	return json.Unmarshal(b, result)
}

// mcpAPICall calls MCP api_call with the recipe, from a client whose
// person accepts every approval (elicit) or from one that cannot ask.
func mcpAPICall(t *testing.T, s *driver.Session, ctx context.Context, recipe json.RawMessage, elicit bool) (string, error) {
	t.Helper()
	var copts *sdk.ClientOptions
	if elicit {
		copts = &sdk.ClientOptions{ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		}}
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.New(mcp.Options{Caller: sessionCaller{s}, Session: "x", SiteTools: true}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close(); _ = ss.Wait() }()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "api_call", Arguments: map[string]any{"recipe": string(recipe)}})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return "", &calls.Error{Msg: text.String()}
	}
	// The call's result is the tool's structuredContent (its text is a
	// summary line and a row a line).
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return "", err
	}
	var out calls.APICallResult
	if err := json.Unmarshal(raw, &out); err != nil || res.StructuredContent == nil {
		return "", &calls.Error{Msg: "not the call's JSON: " + string(raw) + " / " + text.String()}
	}
	return rowNames(out.Rows), nil
}
