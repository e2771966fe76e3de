package mcp

import (
	"bytes"
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/sessions"
)

var productRef = regexp.MustCompile(`link "Trail Mug" \[ref=(e\d+)\]`)

// TestBrowserEndToEnd drives the demo shop in a real Chromium through an
// MCP client: navigate, snapshot, click a product, fill, add to the cart,
// wait, take a screenshot, and fail on a ref that is not there.
func TestBrowserEndToEnd(t *testing.T) {
	site := httptest.NewServer(demo.New(nil))
	defer site.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	p := &person{answer: "accept"}
	cs := connectClient(t, Options{Caller: m, Session: "mcp-e2e"}, p.options(), "")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	call := func(name string, args map[string]any) (string, *sdk.CallToolResult) {
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
		if res.IsError {
			t.Fatalf("%s: tool error: %s", name, b.String())
		}
		return b.String(), res
	}

	got, _ := call("navigate", map[string]any{"url": site.URL + "/products"})
	if !strings.Contains(got, "at ") || !productRef.MatchString(got) {
		t.Fatalf("navigate reply lacks the product list:\n%s", got)
	}
	got, _ = call("snapshot", map[string]any{"interactive": true})
	ref := productRef.FindStringSubmatch(got)
	if ref == nil {
		t.Fatalf("snapshot lacks the product:\n%s", got)
	}

	got, _ = call("click", map[string]any{"target": ref[1]})
	if !strings.Contains(got, `/products/1 "Trail Mug`) || !strings.Contains(got, `button "Add to cart"`) {
		t.Fatalf("click reply:\n%s", got)
	}
	t.Logf("click reply (%d chars):\n%s", len(got), got)

	got, _ = call("fill", map[string]any{"target": "label=Quantity", "value": "3"})
	if !strings.HasPrefix(got, "fill label=Quantity: done") {
		t.Errorf("fill reply:\n%s", got)
	}
	// Add to cart submits a form: the person is asked, then it goes ahead.
	got, _ = call("click", map[string]any{"target": `role=button[name="Add to cart"]`})
	if len(p.asked) != 1 || !strings.Contains(p.asked[0], "Add to cart") {
		t.Errorf("the person was asked %q", p.asked)
	}
	t.Logf("add to cart reply (%d chars):\n%s", len(got), got)
	call("wait", map[string]any{"text": "Cart (3)", "timeout_ms": 10000})

	_, res := call("screenshot", nil)
	img, ok := res.Content[0].(*sdk.ImageContent)
	if !ok || img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG")) {
		t.Errorf("screenshot content %T %+v is not a PNG image", res.Content[0], res.Content[0])
	}

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "click", Arguments: map[string]any{"target": "e9999"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := res.Content[0].(*sdk.TextContent).Text
	if !res.IsError || !strings.Contains(msg, "hint:") {
		t.Errorf("click on a missing ref: isError=%v %q", res.IsError, msg)
	}
	t.Logf("missing ref: %s", msg)
}
