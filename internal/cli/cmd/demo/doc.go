// Package demo holds the demo command(s) of waymark's command line (NewCmd:
// Demo, DemoServe).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package demo
