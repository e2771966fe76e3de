// Package memory holds the memory command(s) of waymark's command line
// (NewCmd: Memory).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package memory
