// Package drift holds the drift command(s) of waymark's command line (NewCmd:
// Drift).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package drift
