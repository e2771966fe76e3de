package mcp

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo/pubsite"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// TestSiteToolsInBrowser: sitemap lists the site's pages ranked; page_tool
// is not in the list until a look shows a page with tools, then is; a
// read-only tool answers inside a page_content fence; one that acts is put
// to the person and reaches the site only when they accept.
func TestSiteToolsInBrowser(t *testing.T) {
	site := pubsite.New(pubsite.Options{})
	srv := httptest.NewServer(site)
	defer srv.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	p := &person{answer: "decline"}
	cs := connectClient(t, Options{Caller: m, Session: "mcp-site", SiteTools: true}, p.options(), "2025-06-18")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), res.IsError
	}
	names := func() []string {
		t.Helper()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	if n := names(); !slices.Contains(n, "sitemap") || slices.Contains(n, "page_tool") {
		t.Fatalf("tools at start: %v", n)
	}
	got, isErr := call("sitemap", map[string]any{"origin": srv.URL, "query": "floor lamp", "limit": 2})
	if isErr || !strings.Contains(got, "\n"+srv.URL+"/shop/products/floor-lamp") {
		t.Fatalf("sitemap:\n%s", got)
	}

	// A browser that keeps the read-only hint from DevTools (Chromium 148)
	// leaves search_products not known read-only: put to the person too.
	hidden := browsertest.ToolAnnotationsHidden(t)
	tools := "[tools: add_to_cart, search_products (read-only)]"
	if hidden {
		tools = "[tools: add_to_cart, search_products]"
	}
	got, isErr = call("navigate", map[string]any{"url": srv.URL + "/tools"})
	if isErr || !strings.Contains(got, tools) {
		t.Fatalf("navigate:\n%s", got)
	}
	if n := names(); !slices.Contains(n, "page_tool") {
		t.Fatalf("page_tool not offered after a look at a page with tools: %v", n)
	}
	if hidden {
		p.mu.Lock()
		p.answer = "accept"
		p.mu.Unlock()
	}
	got, isErr = call("page_tool", map[string]any{"name": "search_products", "args": map[string]any{"query": "oak"}})
	if isErr || !strings.Contains(got, "<page_content>") || !strings.Contains(got, "Oak chair") {
		t.Fatalf("search_products:\n%s", got)
	}
	p.mu.Lock()
	if asked := len(p.asked); hidden != (asked == 1) || asked > 1 {
		t.Errorf("search_products: the person was asked %d time(s), read-only hidden %v", asked, hidden)
	}
	p.asked, p.answer = nil, "decline"
	p.mu.Unlock()
	got, _ = call("page_tool", map[string]any{"name": "add_to_cart", "args": map[string]any{"handle": "oak-chair"}})
	p.mu.Lock()
	asked := len(p.asked)
	p.answer = "accept"
	p.mu.Unlock()
	if site.Cart() != 0 || asked != 1 {
		t.Fatalf("declined: cart %d, asked %d times; reply %s", site.Cart(), asked, got)
	}
	got, isErr = call("page_tool", map[string]any{"name": "add_to_cart", "args": map[string]any{"handle": "oak-chair"}})
	if isErr || site.Cart() != 1 {
		t.Fatalf("accepted: cart %d; reply %s", site.Cart(), got)
	}
}
