// Package pilot holds the pilot command(s) of waymark's command line (NewCmd:
// Act, Extract, Observe, Run).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package pilot
