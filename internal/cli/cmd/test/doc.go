// Package test holds the test command(s) of waymark's command line (NewCmd:
// Test).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package test
