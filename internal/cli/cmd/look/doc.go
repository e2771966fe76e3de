// Package look holds the look command(s) of waymark's command line (NewCmd:
// Capture, Console, Eval, Find, Get, Locate, Network, PDF, Screenshot, Sitemap,
// Snapshot, Wait).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package look
