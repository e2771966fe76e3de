// Package netlog holds the netlog command(s) of waymark's command line
// (NewCmd: Netlog).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package netlog
