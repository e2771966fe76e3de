// Package version is the one owner of a waymark binary's version: the
// version stamped at build time, or, for a development build, one made from
// the executable itself. Both binaries use it, waymark-full for its own
// version (sent in the daemon's hello) and the thin front (cmd/waymark-front)
// to tell whether the running daemon was started by the waymark-full beside
// it; so it imports only the standard library.
package version

import (
	"os"
	"runtime/debug"
	"strconv"
)

// stamp is set at build time, the same for both binaries:
//
//	go build -ldflags "-X github.com/waymark-dev/waymark/internal/version.stamp=v0.4.0" ./cmd/...
//
// A plain go build leaves it empty.
var stamp string

// Self is the running executable's version: [Of] os.Executable.
func Self() string {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return Of(exe)
}

// Of is the version of the waymark executable exe, built together with the
// running one: the stamp when there is one; else the module's version
// ("(devel)" for a build from a checkout) plus the size and modification
// time of exe, so that a rebuilt binary replaces a daemon started by the
// old one. "" or a file that cannot be read adds nothing.
func Of(exe string) string {
	if stamp != "" {
		return stamp
	}
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	if exe == "" {
		return v
	}
	if fi, err := os.Stat(exe); err == nil {
		v += "+" + strconv.FormatInt(fi.Size(), 16) + "." + strconv.FormatInt(fi.ModTime().UnixNano(), 16)
	}
	return v
}
