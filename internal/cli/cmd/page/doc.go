// Package page holds the page command(s) of waymark's command line (NewCmd:
// Cookies, Dialog, Downloads, State, Storage, Viewport).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package page
