package pilot_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// TestRulesModelOnTheDemoSite drives the demo shop with the rules model:
// no key, no network. It fills a form, chooses options, follows a link and
// submits with approval, and the server sees the order.
func TestRulesModelOnTheDemoSite(t *testing.T) {
	s, ctx := drivertest.Session(t, "rules", 90*time.Second)
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	defer srv.Close()
	p := pilot.New(s, rules.New(), nil)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/products"}); err != nil {
		t.Fatal(err)
	}
	do := func(instruction string, opts *pilot.ActOptions) *pilot.ActResult {
		t.Helper()
		if opts == nil {
			opts = &pilot.ActOptions{}
		}
		opts.NoHand = true // keep the test quick; the hand has its own tests
		res, err := p.Act(ctx, instruction, opts)
		if err != nil {
			t.Fatalf("act %q: %v", instruction, err)
		}
		return res
	}
	res := do("click Trail Mug", nil) // follow a link
	if !strings.Contains(res.Outcome.URL, "/products/1") || res.Evidence == nil || res.Evidence.Chosen == "" {
		t.Fatalf("following the link: %+v", res.Outcome)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/checkout"}); err != nil {
		t.Fatal(err)
	}
	do("fill Full name with Ann Example", nil)
	do("fill Email with %email%", &pilot.ActOptions{Vars: pilot.Vars{Values: map[string]string{"email": "ann@example.com"}}})
	do("fill Account password with s3cret-Passw0rd", nil)
	do("select United Kingdom in Country", nil)
	do("check Express", nil)
	do("check I accept the terms and conditions", nil)
	// The submit needs approval; with it, the order is placed.
	if _, err := p.Act(ctx, "click Place order", &pilot.ActOptions{NoHand: true}); err == nil {
		t.Fatal("a submit went through without approval")
	}
	if _, ok := site.LastOrder(); ok {
		t.Fatal("an order was placed without approval")
	}
	do("click Place order", &pilot.ActOptions{AllowSubmit: true})
	order, ok := site.LastOrder()
	if !ok || order.Name != "Ann Example" || order.Email != "ann@example.com" || order.Shipping != "express" {
		t.Fatalf("the server got %+v", order)
	}
}
