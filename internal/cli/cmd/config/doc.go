// Package config holds the config command(s) of waymark's command line
// (NewCmd: Config).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package config
