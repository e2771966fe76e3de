// Package wiring is the real binary's composition root: [DefaultDeps]
// (the daemon client that dials or starts the daemon, the daemon itself
// with its driver options, NetLog and batch service, the demo site), the
// check of a running daemon's settings, and the runner with which the
// daemon runs a command for the thin front (rpc.MethodCLIRun, remote.go).
//
// It sits above internal/cli/root, whose command tree the front's runner
// runs, and below internal/cli, whose Main passes DefaultDeps in.
package wiring
