// Package sheet holds the sheet command(s) of waymark's command line (NewCmd:
// Sheet).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package sheet
