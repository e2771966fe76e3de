// Package form holds the form command(s) of waymark's command line (NewCmd:
// Form).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package form
