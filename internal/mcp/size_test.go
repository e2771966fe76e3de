package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// toolListSize is how a tool list is counted, for waymark and Playwright
// MCP alike: the characters of the compact JSON of the tools/list result,
// and a token estimate of a quarter of that.
func toolListSize(t *testing.T, raw []byte) (chars, tokens int) {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.Len(), b.Len() / 4
}

// TestToolListSize measures waymark's tools/list against Playwright MCP's
// (testdata/playwright-mcp-tools.json: @playwright/mcp 0.0.83's tools/list
// result, captured over stdio with initialize, notifications/initialized,
// tools/list). With the pilot's tools (act, observe, extract, run,
// replay) counted in, the list was under a third of it before every tool
// carried annotations (title and hints) and every field a description and
// its enum, as Playwright MCP's do; with them it is about 60% (12.0k
// chars, ~3.0k tokens, with eval; 62%, 12.7k, with the form tools). The
// guard is two thirds: room for a tool or two more, not for long descriptions (targets are explained once,
// in the server's instructions and one short line per field).
//
// The outputSchemas are left out of that count: a client gives its model
// a tool's name, description and input schema, and reads the output
// schema itself (Playwright MCP's list has none to compare with). Each is
// bounded on its own instead, to 3,000 characters.
func TestToolListSize(t *testing.T) {
	pw, err := os.ReadFile("testdata/playwright-mcp-tools.json")
	if err != nil {
		t.Fatal(err)
	}
	pwChars, pwTokens := toolListSize(t, pw)

	// The default list, with eval, and with every opt-in group on
	// (capture, the site tools, the application tools from the start).
	// The default and eval lists keep the two-thirds guard; the full list
	// must stay under Playwright MCP's whole list.
	for _, c := range []struct {
		name  string
		opts  Options
		limit func(chars int) bool
	}{
		{"default", Options{}, func(n int) bool { return n*3 < pwChars*2 }},
		{"allow_eval", Options{AllowEval: true}, func(n int) bool { return n*3 < pwChars*2 }},
		{"everything", Options{AllowEval: true, AllowCapture: true, SiteTools: true, Apps: true}, func(n int) bool { return n < pwChars }},
	} {
		newPilot := func(context.Context, string) (*pilot.Pilot, error) { return nil, nil }
		replayer := func(context.Context, string, *routine.Routine, replay.Options) (*replay.Result, error) {
			return nil, nil
		}
		o := c.opts
		o.Caller = &fakeCaller{}
		o.Extra = []func(*sdk.Server){PilotTools(newPilot, replayer, PilotOptions{})}
		cs := connect(t, o)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		outChars := 0
		for _, tool := range res.Tools {
			out, err := json.Marshal(tool.OutputSchema)
			if err != nil {
				t.Fatal(err)
			}
			if tool.OutputSchema != nil {
				outChars += len(out)
			}
			if len(out) > 3000 {
				t.Errorf("%s: outputSchema is %d chars, over its 3,000", tool.Name, len(out))
			}
			tool.OutputSchema = nil
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		chars, tokens := toolListSize(t, b.Bytes())
		t.Logf("%s: waymark %d tools, %d chars (~%d tokens); Playwright MCP %d chars (~%d tokens): %.0f%%; output schemas %d chars more",
			c.name, len(res.Tools), chars, tokens, pwChars, pwTokens, 100*float64(chars)/float64(pwChars), outChars)
		if !c.limit(chars) {
			t.Errorf("%s: tool list is %d chars, over its budget against Playwright MCP's %d", c.name, chars, pwChars)
		}
	}
}
