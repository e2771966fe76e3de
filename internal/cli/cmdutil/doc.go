// Package cmdutil is what every command of waymark's command line shares
// and nothing else: the lazy [Factory] and the [Common] part of each
// command's Options, the global flags and their one table of config keys
// ([GlobalOptions], configflags.go), the --json envelope ([Common.Emit],
// [WriteEnvelope]), the one table of exit statuses and error codes
// ([ExitCode], codes.go), the printing of an error ([PrintError]), and the
// argument checks and small printers (tables, plurals) commands use.
//
// A command package (internal/cli/cmd/...) imports this package and never a
// sibling: what two commands share lives here, as in gh's pkg/cmdutil.
package cmdutil
