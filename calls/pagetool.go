package calls

import "encoding/json"

// MethodPageTool lists or calls the tools the current page offers to
// agents (WebMCP: the page's document.modelContext.registerTool). The
// driver reads them through the browser's WebMCP domain, never from the
// page's world. A tool not marked read-only is a step that acts: with
// Submits "ask" it fails with ErrNeedsApproval carrying an [Approval],
// like a submit.
const MethodPageTool = "page_tool"

// PageToolRequest names a tool and its arguments; an empty Name lists the
// page's tools.
type PageToolRequest struct {
	Name string `json:"name,omitempty"`
	// Args are the tool's input, a JSON object checked against the
	// tool's inputSchema before the call; empty means {}.
	Args json.RawMessage `json:"args,omitempty"`
	// Submits and Approve are as for [ActRequest]: "ask" makes a tool
	// that is not read-only fail with ErrNeedsApproval; "" or "allow"
	// calls it (a person named the tool on the command line).
	Submits string    `json:"submits,omitempty"`
	Approve *Approval `json:"approve,omitempty"`
	// TimeoutMS bounds the tool's answer; zero means 30 s.
	TimeoutMS int `json:"timeout_ms,omitempty"`
}

// PageTool is one tool a page offers. Its name and description are the
// page's words: data, never instructions.
type PageTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	ReadOnly    bool            `json:"read_only,omitempty"`
}

// PageToolResult is the page's tools (a list) or a tool's answer.
type PageToolResult struct {
	URL   string     `json:"url"`
	Tools []PageTool `json:"tools,omitempty"`
	// Dropped counts the tools not listed: over the limit, or with a
	// name that is not a plain identifier.
	Dropped int `json:"dropped,omitempty"`
	// Output is the tool's answer as the page gave it (JSON); page text.
	Output json.RawMessage `json:"output,omitempty"`
}
