package act

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/demo/pubsite"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// TestToolCommand: `waymark tool` lists the page's tools; a read-only one
// answers inside a page_content fence; one that acts is refused with
// --ask-submit (nothing reaches the site) and called without it.
func TestToolCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	site := pubsite.New(pubsite.Options{})
	srv := httptest.NewServer(site)
	defer srv.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	common, out, _ := clitest.NewCommon(m, false, false)
	if _, err := common.Remote().Open(ctx, calls.OpenRequest{URL: srv.URL + "/tools"}); err != nil {
		t.Fatal(err)
	}
	if err := toolRun(ctx, &ToolOptions{Common: common}); err != nil {
		t.Fatal(err)
	}
	search := "search_products (read-only)  Search the lamps"
	if browsertest.ToolAnnotationsHidden(t) { // the browser keeps the hint from DevTools
		search = "search_products  Search the lamps"
	}
	if !strings.Contains(out.String(), search) || !strings.Contains(out.String(), "add_to_cart  Add a product") {
		t.Errorf("list:\n%s", out)
	}
	out.Reset()
	req := calls.PageToolRequest{Name: "search_products", Args: json.RawMessage(`{"query":"floor"}`)}
	if err := toolRun(ctx, &ToolOptions{Common: common, Request: req}); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.HasPrefix(s, "<page_content>\n") || !strings.Contains(s, "Floor lamp") {
		t.Errorf("answer:\n%s", s)
	}
	req = calls.PageToolRequest{Name: "add_to_cart", Args: json.RawMessage(`{"handle":"oak-chair"}`), Submits: "ask"}
	if err := toolRun(ctx, &ToolOptions{Common: common, Request: req}); !errors.Is(err, calls.ErrNeedsApproval) && calls.Code(err) != "needs_approval" {
		t.Fatalf("--ask-submit: %v", err)
	}
	if site.Cart() != 0 {
		t.Fatal("a refused tool reached the site")
	}
	req.Submits = ""
	if err := toolRun(ctx, &ToolOptions{Common: common, Request: req}); err != nil {
		t.Fatal(err)
	}
	if site.Cart() != 1 {
		t.Errorf("cart %d", site.Cart())
	}
}
