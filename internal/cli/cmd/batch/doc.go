// Package batch holds the batch command(s) of waymark's command line (NewCmd:
// Batch, Worker).
// It imports internal/cli/cmdutil for what every command shares, never a
// sibling command package.
package batch
