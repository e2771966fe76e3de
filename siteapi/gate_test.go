package siteapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/siteapi"
)

// TestCallGate: an API call reads. A request that is not a read — a
// method that writes, an unmarked POST, a URL whose words act, a body
// that is not the read the recipe claims — reaches no server: the call
// stops needs_approval with the request in its approval, whichever hop
// it is (the first, a redirect, a next page). The approved request goes
// once.
func TestCallGate(t *testing.T) {
	list := func(next string) string { return `{"items":[{"title":"Lamp"}],"next":"` + next + `"}` }
	ok := func(req calls.FetchRequest) (*calls.FetchResult, error) {
		return &calls.FetchResult{Status: 200, Body: list("")}, nil
	}
	for _, tc := range []struct {
		name   string
		edit   func(r *siteapi.Recipe)
		answer func(req calls.FetchRequest) (*calls.FetchResult, error)
		sent   int // requests that reached the site before the stop
		held   string
	}{
		{"POST", func(r *siteapi.Recipe) { r.Request.Method = "POST" }, ok, 0, "POST https://shop.example/api/items"},
		{"PUT", func(r *siteapi.Recipe) { r.Request.Method = "PUT" }, ok, 0, "PUT "},
		{"PATCH", func(r *siteapi.Recipe) { r.Request.Method = "PATCH" }, ok, 0, "PATCH "},
		{"QUERY", func(r *siteapi.Recipe) { r.Request.Method = "QUERY" }, ok, 0, "QUERY "},
		{"escaped logout", func(r *siteapi.Recipe) { r.Request.URL = "https://shop.example/log%6Fut" }, ok, 0, "GET "},
		{"JSON-RPC read claimed over a write", func(r *siteapi.Recipe) {
			r.Request.Method, r.Request.Read = "POST", discover.ReadJSONRPC
			r.Request.Body = []siteapi.Param{{Name: "/jsonrpc", Source: siteapi.Source{From: siteapi.FromConst, Value: "2.0"}},
				{Name: "/method", Source: siteapi.Source{From: siteapi.FromVar, Key: "m"}}}
		}, ok, 0, "POST "},
		{"an earlier answer read from an acting path", func(r *siteapi.Recipe) {
			r.Request.Query = []siteapi.Param{{Name: "token", Source: siteapi.Source{From: siteapi.FromResponse, URL: "https://shop.example/session/logout", Path: "/t"}}}
		}, ok, 0, "GET https://shop.example/session/logout"},
		{"GET logout", func(r *siteapi.Recipe) { r.Request.URL = "https://shop.example/account/logout" }, ok, 0, "GET https://shop.example/account/logout"},
		{"GET delete?id=1", func(r *siteapi.Recipe) {
			r.Request.URL = "https://shop.example/items/delete"
			r.Request.Query = []siteapi.Param{{Name: "id", Source: siteapi.Source{From: siteapi.FromConst, Value: "1"}}}
		}, ok, 0, "GET https://shop.example/items/delete?id=1"},
		{"read claimed over a mutation", func(r *siteapi.Recipe) {
			r.Request.Method, r.Request.Read = "POST", discover.ReadGraphQL
			r.Request.Body = []siteapi.Param{{Name: "/query", Source: siteapi.Source{From: siteapi.FromConst, Value: "mutation { emptyCart { ok } }"}}}
		}, ok, 0, "POST "},
		{"GraphQL mutation over GET", func(r *siteapi.Recipe) {
			r.Request.Query = []siteapi.Param{{Name: "query", Source: siteapi.Source{From: siteapi.FromConst, Value: "mutation { emptyCart { ok } }"}}}
		}, ok, 0, "GET "},
		{"302 to an acting path", func(r *siteapi.Recipe) {}, func(req calls.FetchRequest) (*calls.FetchResult, error) {
			if strings.HasSuffix(req.URL, "/api/items") {
				return &calls.FetchResult{Status: 302, Location: "/session/signout"}, nil
			}
			return ok(req)
		}, 1, "GET https://shop.example/session/signout"},
		{"next link to an acting path", func(r *siteapi.Recipe) {
			r.Pagination = &siteapi.Pagination{Kind: siteapi.PageNext, Next: "/next"}
		}, func(req calls.FetchRequest) (*calls.FetchResult, error) {
			return &calls.FetchResult{Status: 200, Body: list("/cart/remove?all=1")}, nil
		}, 1, "GET https://shop.example/cart/remove?all=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := plainRecipe()
			tc.edit(r)
			f := &fakeSite{answer: tc.answer}
			vars := map[string]string{"m": "deleteAll"}
			_, err := siteapi.Call(context.Background(), f, r, siteapi.CallOptions{Vars: vars})
			if len(f.sent) != tc.sent {
				t.Errorf("%d requests reached the site, want %d: %+v", len(f.sent), tc.sent, f.sent)
			}
			var a calls.Approval
			if !errors.Is(err, calls.ErrNeedsApproval) || json.Unmarshal(calls.DataOf(err), &a) != nil || !strings.HasPrefix(a.Sends, tc.held) {
				t.Fatalf("want needs_approval holding %q, got %v (%+v)", tc.held, err, a)
			}
			if calls.Hint(err) == "" {
				t.Errorf("no hint: %v", err)
			}
			// Approved, exactly that request goes, once.
			f.sent = nil
			_, err = siteapi.Call(context.Background(), f, r, siteapi.CallOptions{Vars: vars, Approved: a.Sends})
			n := 0
			for _, s := range f.sent {
				if siteapi.Sends(s) == a.Sends {
					n++
				}
			}
			if n != 1 {
				t.Errorf("approved, the request went %d times (%v)", n, err)
			}
		})
	}
}

// TestCallGateReads: a GET list read page by page, and a POST learned a
// read (a GraphQL query), go without asking.
func TestCallGateReads(t *testing.T) {
	r := plainRecipe()
	r.Pagination = &siteapi.Pagination{Kind: siteapi.PageNumber, Param: "page", Start: 1}
	f := &fakeSite{answer: func(req calls.FetchRequest) (*calls.FetchResult, error) {
		if strings.HasSuffix(req.URL, "page=3") {
			return &calls.FetchResult{Status: 200, Body: `{"items":[]}`}, nil
		}
		return &calls.FetchResult{Status: 200, Body: `{"items":[{"title":"Lamp"}]}`}, nil
	}}
	res, err := siteapi.Call(context.Background(), f, r, siteapi.CallOptions{})
	if err != nil || len(res.Rows) != 2 {
		t.Fatalf("GET pages: %v %+v", err, res)
	}
	r = plainRecipe()
	r.Request.Method, r.Request.Read = "POST", discover.ReadGraphQL
	r.Request.Body = []siteapi.Param{{Name: "/query", Source: siteapi.Source{From: siteapi.FromConst, Value: "query Items { items { title } }"}}}
	f = &fakeSite{answer: func(req calls.FetchRequest) (*calls.FetchResult, error) {
		return &calls.FetchResult{Status: 200, Body: `{"items":[{"title":"Lamp"}]}`}, nil
	}}
	if res, err := siteapi.Call(context.Background(), f, r, siteapi.CallOptions{}); err != nil || len(res.Rows) != 1 {
		t.Fatalf("GraphQL query: %v %+v", err, res)
	}
	r.Request.Read = "sure"
	if _, err := siteapi.Parse(mustMarshal(t, r)); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("an unknown read shape: %v", err)
	}
}

func mustMarshal(t *testing.T, r *siteapi.Recipe) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
