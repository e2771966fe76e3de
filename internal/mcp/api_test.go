package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
)

// TestAPICall: api_call sends the recipe to the session's CallAPI and
// answers with its rows; a recipe holding a secret is refused before any
// call.
func TestAPICall(t *testing.T) {
	fc := &fakeCaller{reply: func(method string, params any) (any, error) {
		return calls.APICallResult{Rows: []map[string]any{{"name": "Brass lamp"}}, Pages: 1, Requests: 1}, nil
	}}
	cs := connect(t, Options{Caller: fc, SiteTools: true})
	rec := `{"format":"waymark.api/1","site":"https://shop.example","page":"https://shop.example/","request":{"method":"GET","url":"https://shop.example/api/items","headers":[%s]},"rows":"/items","fields":[{"name":"name","path":"/title"}]}`
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "api_call", Arguments: map[string]any{"recipe": strings.Replace(rec, "%s", "", 1), "pages": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "Brass lamp") {
		t.Fatalf("api_call: %+v", res.Content[0])
	}
	var sent calls.APICallRequest
	for _, c := range fc.calls {
		if c.Method == calls.MethodAPICall {
			if err := json.Unmarshal([]byte(c.Params), &sent); err != nil {
				t.Fatal(err)
			}
		}
	}
	if sent.Pages != 2 || !strings.Contains(string(sent.Recipe), "/api/items") {
		t.Errorf("sent %+v", sent)
	}
	n := len(fc.calls)
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "api_call", Arguments: map[string]any{
		"recipe": strings.Replace(rec, "%s", `{"name":"authorization","from":"const","value":"Bearer tok-7f3a9c2e51b84d06a1e2"}`, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || len(fc.calls) != n {
		t.Errorf("a recipe holding a token: error %v, %d calls made", res.IsError, len(fc.calls)-n)
	}
}

// TestAPICallStructuredKeys pins the names of api_call's structured
// content (calls.APICallResult): clients read them, so a rename is a
// break.
func TestAPICallStructuredKeys(t *testing.T) {
	fc := &fakeCaller{reply: func(method string, params any) (any, error) {
		return calls.APICallResult{Rows: []map[string]any{{"name": "Brass lamp"}}, Pages: 1, Requests: 2, Bytes: 26, Ended: "last page",
			ETag: `"v1"`, LastModified: "Sat, 05 Dec 2026 10:00:00 GMT", WaitedMS: 1500}, nil
	}}
	cs := connect(t, Options{Caller: fc, SiteTools: true})
	rec := `{"format":"waymark.api/1","site":"https://shop.example","page":"https://shop.example/","request":{"method":"GET","url":"https://shop.example/api/items"},"rows":"/items","fields":[{"name":"name","path":"/title"}]}`
	_, isErr, res := callTool(t, cs, "api_call", map[string]any{"recipe": rec})
	if isErr {
		t.Fatalf("api_call: %+v", res.Content)
	}
	got, err := json.Marshal(res.StructuredContent) // a map on the client's side: keys sorted
	if err != nil {
		t.Fatal(err)
	}
	want := `{"bytes":26,"ended":"last page","etag":"\"v1\"","last_modified":"Sat, 05 Dec 2026 10:00:00 GMT","pages":1,"requests":2,"rows":[{"name":"Brass lamp"}],"waited_ms":1500}`
	if string(got) != want {
		t.Errorf("structured content %s\nwant %s", got, want)
	}
}
