package siteapi

import (
	"context"
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/discover"
)

// Verify calls a learned recipe and keeps it only when the call returns
// the rows the browser read: each of rows must be among the rows called,
// on every field the recipe maps. pages is how many pages to read (the
// pages the browser read; zero means every page). It marks the recipe
// verified. It keeps none of the call's validators: they say "the list is
// as at your last call", and the person has not had a call's rows yet, so
// the first `api call` after learning must read them, not answer
// "unchanged".
func Verify(ctx context.Context, s Session, r *Recipe, rows []map[string]any, pages int, opts CallOptions) (*calls.APICallResult, error) {
	opts.Pages, opts.Fresh = pages, true
	res, err := Call(ctx, s, r, opts)
	if err != nil {
		return nil, err
	}
	missing := 0
	var first map[string]any
	for _, want := range rows {
		if !holds(res.Rows, want, r.Fields) {
			if first == nil {
				first = want
			}
			missing++
		}
	}
	if missing > 0 {
		return res, newError(KindChanged, "the call behind the page answers other rows: capture again while the page loads the list, then learn again",
			"a direct call returned %d row(s); %d of the %d the browser read are not among them (the first: %s)", len(res.Rows), missing, len(rows), rowWords(first, r.Fields))
	}
	if r.Learned == nil {
		r.Learned = &Learned{}
	}
	r.Learned.Verified, r.Validators = true, nil
	return res, nil
}

// holds reports whether a row the browser read is among the rows called.
func holds(called []map[string]any, want map[string]any, fields []Field) bool {
	for _, got := range called {
		ok := true
		for _, f := range fields {
			w := want[f.Name]
			if text(w) == "" && text(got[f.Name]) == "" {
				continue
			}
			if !same(w, got[f.Name]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func rowWords(row map[string]any, fields []Field) string {
	var parts []string
	for _, f := range fields {
		parts = append(parts, f.Name+"="+text(row[f.Name]))
	}
	return strings.Join(parts, ", ")
}

// LearnCall is [Learn] then [Verify]: it fetches each candidate URL (GET,
// from the tab, under the URL policy) to rank its answer with the
// captured ones, learns the recipe, and returns it only once a direct
// call has returned the rows. pages bounds the verifying call (zero:
// the pages the capture holds).
func LearnCall(ctx context.Context, s Session, f *capture.File, rows []map[string]any, opts LearnOptions) (*Recipe, *Report, error) {
	for _, c := range opts.Candidates {
		if !probeable(c.URL, opts.Page) {
			continue
		}
		res, err := s.Fetch(ctx, calls.FetchRequest{URL: c.URL, Redirect: "manual", Credentials: "same-origin"})
		if err != nil || res.Status != 200 {
			continue
		}
		opts.Extra = append(opts.Extra, capture.Exchange{ID: "candidate:" + c.Source, Kind: "fetch", Method: "GET", URL: res.URL, Page: opts.Page, Status: res.Status, ResponseBody: res.Body})
	}
	r, rep, err := Learn(f, rows, opts)
	if err != nil {
		return nil, rep, err
	}
	if _, err := Verify(ctx, s, r, rows, max(rep.Pages, 1), CallOptions{}); err != nil {
		return nil, rep, err
	}
	for _, x := range f.Exchanges {
		if x.ID == r.Learned.Exchange {
			if rep.Sender = Sender(ctx, s, x.Initiator); rep.Sender != "" {
				r.Learned.Sender = rep.Sender
			}
			break
		}
	}
	return r, rep, nil
}

// probeable reports whether a candidate may be fetched to rank it: a GET
// on the page's site whose path names no action (a probe must not log
// out, pay or delete: discover.Acts decides).
func probeable(u, page string) bool {
	o, err := originOf(u)
	if err != nil {
		return false
	}
	if po, err := originOf(page); err != nil || po != o {
		return false
	}
	p, err := url.Parse(u)
	return err == nil && discover.Acts(p) == ""
}
