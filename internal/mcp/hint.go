package mcp

import (
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// The hints that come with a failure (from the driver, the pilot, a
// replay) are written for the command line: `run "waymark snapshot"`,
// `--allow-submit`. An MCP client has tools and arguments, not commands
// and flags, so mcpHint says the same in its words. The daemon's own
// commands (waymark daemon …) and the flags that are the server's own
// settings (--executable-path: how `waymark mcp` was started) are advice
// for the person, and stay.
var (
	hintRunCommand = lazyre.New(`run (?:"waymark ([a-z]+)[^"]*"|waymark ([a-z]+))`)
	hintCommand    = lazyre.New(`(?:"waymark ([a-z]+)[^"]*"|waymark ([a-z]+))`)
	hintFlag       = lazyre.New(`(^|[\s(])--(timeout)\b`)
)

// mcpHint is a hint in the words of the MCP front.
func mcpHint(h string) string {
	if h == "" || strings.Contains(h, "waymark daemon") {
		return h
	}
	if strings.Contains(h, "--allow-submit") {
		// Over MCP only a person approves a submit: the agent has no
		// argument for it.
		return submitNeedsPerson
	}
	h = hintRunCommand.ReplaceAllString(h, "call the ${1}${2} tool")
	h = hintCommand.ReplaceAllString(h, "the ${1}${2} tool")
	h = hintFlag.ReplaceAllStringFunc(h, func(m string) string {
		sub := hintFlag.FindStringSubmatch(m)
		return sub[1] + "the argument " + map[string]string{"timeout": "timeout_ms"}[sub[2]]
	})
	return h
}
