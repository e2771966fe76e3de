package siteapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/siteapi"
)

const lampsQuery = `query Lamps($after: String, $first: Int) { lamps(after: $after, first: $first) { items { sku name price } pageInfo { endCursor hasNextPage } } }`

// graphqlPage is the answer for the page after cursor after ("" first).
func graphqlPage(after string) string {
	from := 0
	if after != "" {
		fmt.Sscanf(after, "c%d", &from)
	}
	if from >= 15 { // as many GraphQL servers do: a cursor past the end is an error
		return `{"errors":[{"message":"bad cursor"}]}`
	}
	return fmt.Sprintf(`{"data":{"lamps":{"items":%s,"pageInfo":{"endCursor":"c%d","hasNextPage":%v}}}}`, items(from, 5), from+5, from+5 < 15)
}

func graphqlBody(after any, offset any) string {
	vars := map[string]any{"after": after, "first": 5}
	if offset != nil {
		vars = map[string]any{"offset": offset, "limit": 5}
	}
	b, _ := json.Marshal(map[string]any{"query": lampsQuery, "operationName": "Lamps", "variables": vars})
	return string(b)
}

// TestLearnBodyPages: a GraphQL list paged by a cursor in its variables,
// and a POST search paged by an offset in its body, are learned with
// their paging in the body, and a call reads every page (before, learning
// found no paging: the direct call read the first page only).
func TestLearnBodyPages(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	capt := func(body func(i int) string, answer func(i int) string) *capture.File {
		f := &capture.File{Format: capture.Format}
		for i := range 2 {
			f.Exchanges = append(f.Exchanges, capture.Exchange{ID: fmt.Sprint(i), Method: "POST", URL: "https://shop.example/graphql", Status: 200,
				RequestHeaders: []capture.Header{{Name: "Content-Type", Value: "application/json"}},
				RequestBody:    body(i), ResponseBody: answer(i), Sent: t0.Add(time.Duration(i) * time.Second)})
		}
		return f
	}
	cursor := capt(func(i int) string {
		if i == 0 {
			return graphqlBody(nil, nil)
		}
		return graphqlBody(fmt.Sprintf("c%d", i*5), nil)
	}, func(i int) string { return graphqlPage(map[int]string{0: "", 1: "c5"}[i]) })
	r, _, err := siteapi.Learn(cursor, shown(0, 10), siteapi.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := siteapi.Pagination{Kind: siteapi.PageCursor, Param: "/variables/after", In: siteapi.PageInBody, Next: "/data/lamps/pageInfo/endCursor"}
	if r.Pagination == nil || *r.Pagination != want {
		t.Fatalf("pagination %+v, want %+v", r.Pagination, want)
	}
	if err := r.Validate(); err != nil {
		t.Fatalf("the learned recipe does not check: %v", err)
	}
	site := &fakeSite{answer: func(req calls.FetchRequest) (*calls.FetchResult, error) {
		var b struct {
			Query     string         `json:"query"`
			Variables map[string]any `json:"variables"`
		}
		if err := json.Unmarshal([]byte(req.Body), &b); err != nil || b.Query != lampsQuery {
			return &calls.FetchResult{URL: req.URL, Status: 400, StatusText: "Bad Request"}, nil
		}
		after, _ := b.Variables["after"].(string)
		return &calls.FetchResult{URL: req.URL, Status: 200, Body: graphqlPage(after), Headers: []calls.Header{{Name: "content-type", Value: "application/json"}}}, nil
	}}
	res, err := siteapi.Call(context.Background(), site, r, siteapi.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 15 || res.Ended != "last page" {
		t.Errorf("%d rows over %d pages, ended %q; sent %d requests", len(res.Rows), res.Pages, res.Ended, len(site.sent))
	}
	if len(site.sent) > 0 {
		var first struct{ Variables map[string]any }
		json.Unmarshal([]byte(site.sent[0].Body), &first)
		if v, ok := first.Variables["after"]; !ok || v != nil {
			t.Errorf("the first page's body sends after=%v, want null", v)
		}
	}

	offset := capt(func(i int) string { return graphqlBody(nil, i*5) }, func(i int) string { return graphqlPage(map[int]string{0: "", 1: "c5"}[i]) })
	r, _, err = siteapi.Learn(offset, shown(0, 10), siteapi.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want = siteapi.Pagination{Kind: siteapi.PageOffset, Param: "/variables/offset", In: siteapi.PageInBody, Start: 0, Step: 5}
	if r.Pagination == nil || *r.Pagination != want {
		t.Errorf("pagination %+v, want %+v", r.Pagination, want)
	}
	bad := *r
	bad.Pagination = &siteapi.Pagination{Kind: siteapi.PageNext, In: siteapi.PageInBody, Next: "/x"}
	if err := bad.Validate(); err == nil {
		t.Error("a next link in the body checks")
	}
}
