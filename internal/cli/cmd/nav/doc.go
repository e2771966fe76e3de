// Package nav holds the nav command(s) of waymark's command line (NewCmd:
// Back, Forward, Open, Reload, Tab).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package nav
