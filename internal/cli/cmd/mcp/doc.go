// Package mcp holds the mcp command(s) of waymark's command line (NewCmd:
// MCP).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package mcp
