// Package routine holds the routine command(s) of waymark's command line
// (NewCmd: Routine).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package routine
