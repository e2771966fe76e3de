// Package replay holds the replay command(s) of waymark's command line
// (NewCmd: Replay).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package replay
