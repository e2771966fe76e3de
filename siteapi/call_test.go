package siteapi_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/siteapi"
)

// fakeSite answers every fetch with answer (a seam for the failure kinds;
// the browser tests cover the real transport).
type fakeSite struct {
	answer func(req calls.FetchRequest) (*calls.FetchResult, error)
	sent   []calls.FetchRequest
}

func (f *fakeSite) Fetch(ctx context.Context, req calls.FetchRequest) (*calls.FetchResult, error) {
	f.sent = append(f.sent, req)
	return f.answer(req)
}

func (f *fakeSite) Eval(ctx context.Context, req calls.EvalRequest) (*calls.EvalResult, error) {
	return &calls.EvalResult{Value: json.RawMessage(`{"url":"https://shop.example/"}`)}, nil
}

func (f *fakeSite) Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error) {
	return &calls.PageInfo{URL: req.URL}, nil
}

func plainRecipe() *siteapi.Recipe {
	return &siteapi.Recipe{Format: siteapi.Format, Site: "https://shop.example", Page: "https://shop.example/",
		Request: siteapi.Request{Method: "GET", URL: "https://shop.example/api/items"}, Rows: "/items", Fields: []siteapi.Field{{Name: "name", Path: "/title"}}}
}

// TestCallFailureKinds: each way a call fails says its kind.
func TestCallFailureKinds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(req calls.FetchRequest) (*calls.FetchResult, error)
		want   siteapi.Kind
		sends  int
	}{
		{"a wait over the bound", func(calls.FetchRequest) (*calls.FetchResult, error) {
			return &calls.FetchResult{Status: 429, Headers: []calls.Header{{Name: "retry-after", Value: "3600"}}}, nil
		}, siteapi.KindRate, 1},
		{"signed out", func(calls.FetchRequest) (*calls.FetchResult, error) { return &calls.FetchResult{Status: 401}, nil }, siteapi.KindAuth, 1},
		{"server error", func(calls.FetchRequest) (*calls.FetchResult, error) { return &calls.FetchResult{Status: 503}, nil }, siteapi.KindNetwork, 1},
		{"gone", func(calls.FetchRequest) (*calls.FetchResult, error) { return &calls.FetchResult{Status: 404}, nil }, siteapi.KindChanged, 1},
		{"a list no more", func(calls.FetchRequest) (*calls.FetchResult, error) {
			return &calls.FetchResult{Status: 200, Body: `{"results":[]}`}, nil
		}, siteapi.KindChanged, 1},
		{"a redirect loop", func(req calls.FetchRequest) (*calls.FetchResult, error) {
			return &calls.FetchResult{Status: 302, Location: req.URL}, nil
		}, siteapi.KindNetwork, 11},
		{"no answer", func(calls.FetchRequest) (*calls.FetchResult, error) {
			return nil, calls.Errorf(calls.ErrNavigation, "", "failed to fetch")
		}, siteapi.KindNetwork, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeSite{answer: tc.answer}
			start := time.Now()
			_, err := siteapi.Call(context.Background(), f, plainRecipe(), siteapi.CallOptions{})
			if got := siteapi.KindOf(err); got != tc.want {
				t.Errorf("kind %q (%v), want %q", got, err, tc.want)
			}
			if len(f.sent) != tc.sends || time.Since(start) > 5*time.Second {
				t.Errorf("%d requests in %s, want %d at once", len(f.sent), time.Since(start), tc.sends)
			}
			if calls.Hint(err) == "" {
				t.Errorf("no hint: %v", err)
			}
		})
	}
}

// TestCallRedirectDropsSecrets: a hop to another origin goes without the
// headers read from the page and without cookies; a 303 turns a POST into
// a GET (a POST learned a read: a GraphQL query).
func TestCallRedirectDropsSecrets(t *testing.T) {
	r := plainRecipe()
	r.Request.Method, r.Request.Read = "POST", discover.ReadGraphQL
	r.Request.Headers = []siteapi.Param{{Name: "authorization", Source: siteapi.Source{From: siteapi.FromVar, Key: "t", Prefix: "Bearer "}},
		{Name: "accept", Source: siteapi.Source{From: siteapi.FromConst, Value: "application/json"}}}
	r.Request.Body = []siteapi.Param{{Name: "/query", Source: siteapi.Source{From: siteapi.FromConst, Value: "{ items(q: \"lamp\") { title } }"}}}
	f := &fakeSite{answer: func(req calls.FetchRequest) (*calls.FetchResult, error) {
		if req.URL == "https://shop.example/api/items" {
			return &calls.FetchResult{Status: 303, Location: "https://cdn.example/items.json"}, nil
		}
		return &calls.FetchResult{Status: 200, Body: `{"items":[{"title":"Lamp"}]}`}, nil
	}}
	res, err := siteapi.Call(context.Background(), f, r, siteapi.CallOptions{Vars: map[string]string{"t": "tok-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || len(f.sent) != 2 {
		t.Fatalf("%d rows in %d requests", len(res.Rows), len(f.sent))
	}
	first, hop := f.sent[0], f.sent[1]
	if first.Headers["authorization"] != "Bearer tok-1" || first.Method != "POST" || first.Redirect != "manual" {
		t.Errorf("first hop %+v", first)
	}
	if _, ok := hop.Headers["authorization"]; ok || hop.Headers["accept"] != "application/json" || hop.Credentials != "same-origin" || hop.Method != "GET" || hop.Body != "" {
		t.Errorf("hop to another origin %+v", hop)
	}
}

// TestCallValidators: the first page's ETag and Last-Modified come back
// in the result, to keep in the recipe; sent back, a 304 answers
// unchanged with no rows and the recipe's own validators, and a fresh
// call sends none.
func TestCallValidators(t *testing.T) {
	const etag, lastMod = `"v1"`, "Sat, 05 Dec 2026 10:00:00 GMT"
	f := &fakeSite{answer: func(req calls.FetchRequest) (*calls.FetchResult, error) {
		if req.Headers["If-None-Match"] == etag {
			return &calls.FetchResult{Status: 304}, nil
		}
		return &calls.FetchResult{Status: 200, Headers: []calls.Header{{Name: "ETag", Value: etag}, {Name: "last-modified", Value: lastMod}},
			Body: `{"items":[{"title":"Lamp"}]}`}, nil
	}}
	r := plainRecipe()
	res, err := siteapi.Call(context.Background(), f, r, siteapi.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unchanged || len(res.Rows) != 1 || res.ETag != etag || res.LastModified != lastMod {
		t.Fatalf("first call %+v", res)
	}

	r.Validators = &siteapi.Validators{ETag: res.ETag, LastModified: res.LastModified}
	res, err = siteapi.Call(context.Background(), f, r, siteapi.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sent := f.sent[len(f.sent)-1].Headers; sent["If-None-Match"] != etag || sent["If-Modified-Since"] != lastMod {
		t.Errorf("the call sent %v, not the recipe's validators", sent)
	}
	if !res.Unchanged || res.Ended != "unchanged" || len(res.Rows) != 0 || res.Requests != 1 || res.ETag != etag || res.LastModified != lastMod {
		t.Errorf("unchanged call %+v", res)
	}

	res, err = siteapi.Call(context.Background(), f, r, siteapi.CallOptions{Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.sent[len(f.sent)-1].Headers["If-None-Match"]; ok || res.Unchanged || len(res.Rows) != 1 {
		t.Errorf("fresh call sent %v and read %+v", f.sent[len(f.sent)-1].Headers, res)
	}
}
