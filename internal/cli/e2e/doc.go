// Package e2e holds the tests that run the whole CLI: each drives
// [cli.MainWith], the entry the binary's main reaches, with a fake daemon
// (clitest.FakeCaller) or a real session manager over Chromium behind
// Deps.Dial, and reads the exit status, stdout and stderr a person or an
// agent would. A test of one command's run function lives in that
// command's folder (internal/cli/cmd/<noun>); a test here is one that
// needs the command tree: the global flags and configuration, the exit
// codes and envelope of every command, several commands in turn, or a
// runner of the step × runner matrix. The package has no code of its own.
//
// [cli.MainWith]: https://pkg.go.dev/github.com/waymark-dev/waymark/internal/cli#MainWith
package e2e
