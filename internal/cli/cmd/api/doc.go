// Package api holds the api command(s) of waymark's command line (NewCmd:
// API).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package api
