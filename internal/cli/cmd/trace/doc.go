// Package trace holds the trace command(s) of waymark's command line (NewCmd:
// Trace).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package trace
