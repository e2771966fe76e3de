// Package version holds the version command(s) of waymark's command line
// (NewCmd: Version).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package version
