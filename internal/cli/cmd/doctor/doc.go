// Package doctor holds the doctor command(s) of waymark's command line
// (NewCmd: Doctor).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package doctor
