package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// TestEveryToolDescribed: every tool carries its annotations (title,
// readOnlyHint, destructiveHint, openWorldHint), every input field a
// description, the fields with fixed values an enum, and the tools that
// return data an outputSchema; the read-only tools are marked so.
func TestEveryToolDescribed(t *testing.T) {
	newPilot := func(context.Context, string) (*pilot.Pilot, error) { return nil, nil }
	replayer := func(context.Context, string, *routine.Routine, replay.Options) (*replay.Result, error) {
		return nil, nil
	}
	cs := connect(t, Options{Caller: &fakeCaller{}, AllowEval: true, AllowCapture: true, SiteTools: true, Apps: true, Extra: []func(*sdk.Server){PilotTools(newPilot, replayer, PilotOptions{})}})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	readOnly := map[string]bool{}
	for _, tool := range res.Tools {
		a := tool.Annotations
		if a == nil || a.Title == "" || a.DestructiveHint == nil || a.OpenWorldHint == nil || !*a.OpenWorldHint {
			t.Errorf("tool %s: annotations %+v", tool.Name, a)
			continue
		}
		if a.ReadOnlyHint && *a.DestructiveHint {
			t.Errorf("tool %s is read-only and destructive", tool.Name)
		}
		readOnly[tool.Name] = a.ReadOnlyHint
		if tool.Name == "api_call" && (a.IdempotentHint || !*a.DestructiveHint) {
			t.Errorf("api_call may send with approval: annotations %+v", a)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Properties map[string]struct {
				Description string   `json:"description"`
				Type        any      `json:"type"`
				Enum        []string `json:"enum"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatal(err)
		}
		for name, p := range in.Properties {
			if p.Description == "" || p.Type == nil {
				t.Errorf("%s.%s: description %q, type %v", tool.Name, name, p.Description, p.Type)
			}
			if e, ok := fieldEnums()[tool.Name+"."+name]; ok && len(p.Enum) != len(e) {
				t.Errorf("%s.%s: enum %v", tool.Name, name, p.Enum)
			}
		}
	}
	for _, name := range []string{"snapshot", "screenshot", "wait", "observe", "extract"} {
		if !readOnly[name] {
			t.Errorf("%s is not marked read-only", name)
		}
	}
	for _, name := range []string{"click", "press", "act", "run", "replay", "eval", "api_call"} {
		if readOnly[name] {
			t.Errorf("%s is marked read-only", name)
		}
	}
}

// TestStructuredOutput: snapshot and observe give their data as
// structuredContent, in the shape their outputSchema says.
func TestStructuredOutput(t *testing.T) {
	c := pageCaller()
	cs := connect(t, Options{Caller: c})
	_, isErr, res := callTool(t, cs, "snapshot", nil)
	b, _ := json.Marshal(res.StructuredContent)
	var snap struct{ URL, Title, Outline string }
	if isErr || json.Unmarshal(b, &snap) != nil || snap.URL != "https://shop.test/login" || snap.Outline != signInPage {
		t.Errorf("snapshot structuredContent %s", b)
	}
	if !slices.ContainsFunc(res.Content, func(c sdk.Content) bool { tc, ok := c.(*sdk.TextContent); return ok && tc.Text == signInPage }) {
		t.Errorf("snapshot text content %+v", res.Content)
	}
}
