// Package record holds the record command(s) of waymark's command line
// (NewCmd: Record).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package record
