// Package session holds the session command(s) of waymark's command line
// (NewCmd: Close, Daemon, DaemonRestart, DaemonStatus, DaemonStop, Session).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package session
