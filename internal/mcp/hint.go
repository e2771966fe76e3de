package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
)

// The hints that come with a failure (from the driver, the pilot, a
// replay) are written for the command line: `run "waymark snapshot"`,
// `--allow-submit`. An MCP client has tools and arguments, not commands
// and flags, so mcpHint says the same in its words: a command as the tool
// that does it (calls.NameCommands, toolOf), a flag as the argument
// (calls.NameFlags, mcpArgs). The daemon's own commands (waymark daemon
// …) and the flags that are the server's own settings (--executable-path:
// how `waymark mcp` was started) are advice for the person, and stay.
var (
	// The forms hints had before calls.Cmd (a daemon of an older version
	// may still send them).
	hintRunCommand = lazyre.New(`run (?:"waymark ([a-z]+)[^"]*"|waymark ([a-z]+))`)
	hintCommand    = lazyre.New(`(?:"waymark ([a-z]+)[^"]*"|waymark ([a-z]+))`)
)

// mcpArgs says each flag hints name (calls.HintFlags) as the tools'
// argument that does the same; a flag the table leaves out is the
// server's own setting (serverFlags). TestMCPSaysEveryHintFlag fails for
// a flag said neither way, or said as an argument no tool has. The
// flags of hints no tool can meet are left out too: --url (a cookie's,
// and no tool sets cookies) and --key (a batch's rows, and no tool runs
// a batch); were a tool to meet one, its hint would name the flag.
//
// An argument only one tool has is said with the tool's name: --timeout
// is said after navigate, an element action and wait alike, and only the
// wait tool takes a timeout_ms (the others wait as long as the server's
// [session] timeout).
var mcpArgs = map[string]mcpArg{
	"timeout":   {tool: "wait", arg: "timeout_ms"},
	"recipe":    {arg: "list.recipe"},
	"button":    {arg: "button"},
	"by":        {arg: "by"},
	"after":     {arg: "after"},
	"replace":   {arg: "replace"},
	"end":       {arg: "end"},
	"editor":    {arg: "editor"},
	"var":       {arg: "vars"},
	"input":     {arg: "inputs"},
	"max-steps": {arg: "max_steps"},
}

// mcpArg is a tool's argument: of the tool named, or of the tools that
// have it ("" tool).
type mcpArg struct{ tool, arg string }

func (a mcpArg) String() string {
	if a.tool != "" {
		return "the " + a.tool + " tool's " + a.arg
	}
	return "the argument " + a.arg
}

// serverFlags are the flags hints name that set how the server (or the
// daemon it calls) was started: advice for the person, said as they are.
// An approval (--allow-submit, --approve) is a person's too, said by
// submitNeedsPerson.
var serverFlags = map[string]bool{
	"executable-path": true, "cdp": true, "headed": true, "private-network": true, "allow-files": true,
	"model": true, "base-url": true, "vision": true, "secret": true, "session": true,
	"allow-submit": true, "ask-submit": true, "approve": true,
}

// noToolMeets are the flags of hints no tool can meet (see mcpArgs).
var noToolMeets = map[string]bool{"url": true, "key": true}

// mcpHint is a hint in the words of the MCP front.
func mcpHint(h string) string {
	if h == "" || strings.Contains(h, "waymark daemon") {
		return h
	}
	if strings.Contains(h, "--allow-submit") || strings.Contains(h, "--approve") {
		// Over MCP only a person approves a submit: the agent has no
		// argument for it.
		return submitNeedsPerson
	}
	h = calls.NameCommands(h, func(words []string) string {
		if tool := toolOf(words); tool != "" {
			if tool == "navigate" && len(words) > 1 { // `waymark open URL`
				if url := words[1]; isAddress(url) {
					return "the navigate tool with url " + url
				}
				return "the navigate tool with a url" // a placeholder
			}
			return "the " + tool + " tool"
		}
		return "" // no tool does it: advice for the person
	})
	if !strings.Contains(h, "`waymark ") { // a hint of the older forms
		h = hintRunCommand.ReplaceAllString(h, "call the ${1}${2} tool")
		h = hintCommand.ReplaceAllString(h, "the ${1}${2} tool")
	}
	h = calls.NameFlags(h, func(flag string) string {
		if a, ok := mcpArgs[flag]; ok {
			return a.String()
		}
		return ""
	})
	return h
}

// toolOf is the tool that does what a command's words do ("sheet read"
// is sheet_read, "snapshot -i" snapshot), or "" for none.
func toolOf(words []string) string {
	if len(words) == 0 {
		return ""
	}
	if len(words) > 1 {
		if _, ok := toolNotes()[words[0]+"_"+words[1]]; ok {
			return words[0] + "_" + words[1]
		}
	}
	if _, ok := toolNotes()[words[0]]; ok {
		return words[0]
	}
	if words[0] == "get" { // no get tool: the outline shows texts and values
		return "snapshot"
	}
	// Commands whose tool has another name.
	if len(words) > 1 && words[0] == "session" && words[1] == "close" {
		return "close"
	}
	return map[string]string{"open": "navigate", "tab": "tabs"}[words[0]]
}

// isAddress reports whether a command's word is an address (example.com,
// https://…, localhost:8000, about:blank) rather than a placeholder for
// one (URL, url, <address>): an address has a dot, a scheme's colon or
// is localhost, a placeholder none of them. Case tells nothing: a
// lower-case placeholder is no address, and an address may be written
// in capitals.
func isAddress(w string) bool {
	if strings.ContainsAny(w, "<>{}") {
		return false
	}
	host, _, _ := strings.Cut(strings.ToLower(w), ":")
	return strings.Contains(w, ".") || strings.Contains(w, ":") && host != "" && !strings.Contains(host, "/") || host == "localhost"
}

// withToolNames answers a call of a tool this server does not have by a
// command's name (open, tab, get) or another server's (Playwright MCP's
// browser_navigate) with the tool that does it. The answer stays the
// SDK's, the protocol's unknown-tool error (-32602), with the tool named
// after its message: an agent reads the message, a client the code.
//
// The SDK's message is matched whole, here only: were it to change, the
// error would go through as the SDK wrote it, and
// TestWrongToolNamePointsToTheTool would say so.
func withToolNames(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		p, ok := req.GetParams().(*sdk.CallToolParamsRaw)
		var rpcErr *jsonrpc.Error
		if err == nil || method != "tools/call" || !ok || !errors.As(err, &rpcErr) ||
			rpcErr.Code != jsonrpc.CodeInvalidParams || rpcErr.Message != fmt.Sprintf("unknown tool %q", p.Name) {
			return res, err
		}
		tool := toolOf([]string{strings.TrimPrefix(p.Name, "browser_")})
		if tool == "" || tool == p.Name {
			return res, err
		}
		return res, &jsonrpc.Error{Code: rpcErr.Code, Message: rpcErr.Message + ": the " + tool + " tool does that", Data: rpcErr.Data}
	}
}
