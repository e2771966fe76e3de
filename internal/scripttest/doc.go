// Package scripttest holds no code, only the tests of the scripts in
// scripts/: that setup on a machine with no Go (or a Go older than 1.21)
// fetches the toolchain go.mod names from the Go module proxy and checks
// it against the checksum database, with a PATH that holds no Go.
package scripttest
