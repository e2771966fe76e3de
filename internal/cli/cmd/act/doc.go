// Package act holds the act command(s) of waymark's command line (NewCmd:
// Check, Click, ClickAt, DblClick, Drag, Fill, Focus, Hover, Press, Scroll,
// Select, Tool, Type, Uncheck, Upload).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package act
