package mcp

import (
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

// Two clients on one named session, on the demo shop: a reply after an
// action on a new page of the site folds the regions the client read on
// the last one (their refs still act), and a client is told of a change
// another client made, which it never saw.
func TestBrowserRepliesCountChangesPerClient(t *testing.T) {
	site := httptest.NewServer(demo.New(nil))
	defer site.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	caller := func(cs *sdk.ClientSession) func(name string, args map[string]any) string {
		return func(name string, args map[string]any) string {
			t.Helper()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res.IsError {
				t.Fatalf("%s: tool error: %s", name, resultText(res))
			}
			return resultText(res)
		}
	}
	a := caller(connect(t, Options{Caller: m, Session: "mcp-two"}))
	b := caller(connect(t, Options{Caller: m, Session: "mcp-two"}))

	products := a("navigate", map[string]any{"url": site.URL + "/products"})
	ref := regexp.MustCompile(`link "Trail Mug" \[ref=(e\d+)\]`).FindStringSubmatch(products)
	home := regexp.MustCompile(`link "Home" \[ref=(e\d+)\]`).FindStringSubmatch(products)
	if ref == nil || home == nil {
		t.Fatalf("navigate reply:\n%s", products)
	}
	got := a("click", map[string]any{"target": ref[1]})
	if !strings.Contains(got, "- banner: (unchanged)") || !strings.Contains(got, `button "Add to cart"`) || strings.Contains(got, `link "Home"`) {
		t.Fatalf("the reply on the product page does not fold the banner read on the list:\n%s", got)
	}
	qty := regexp.MustCompile(`spinbutton "Quantity" \[ref=(e\d+)\]`).FindStringSubmatch(got)
	if qty == nil {
		t.Fatalf("no Quantity field in:\n%s", got)
	}

	// b reads the page and changes the quantity: b's reply says the field
	// holds what b filled, without repeating it.
	b("snapshot", map[string]any{"interactive": true})
	if got := b("fill", map[string]any{"target": qty[1], "value": "3"}); !strings.Contains(got, "[no changes since your last look besides what you filled]") {
		t.Fatalf("b's fill reply:\n%s", got)
	}
	// a never saw it: a's next reply tells it, though b looked after.
	if got := a("hover", map[string]any{"target": qty[1]}); !strings.Contains(got, `value="3"`) {
		t.Fatalf("a was not told of b's change:\n%s", got)
	}
	// The banner's refs a read on the list still act.
	if got := a("click", map[string]any{"target": home[1]}); !strings.Contains(got, "now at") && !strings.Contains(got, "[page] "+site.URL+"/ ") {
		t.Fatalf("the carried Home link:\n%s", got)
	}
}
