package daemon

import "github.com/waymark-dev/waymark/internal/daemon/daemonpath"

// Paths are the files of one daemon; package daemonpath owns them.
type Paths = daemonpath.Paths

// DefaultPaths returns the paths of the user's daemon (see
// [daemonpath.Default]).
func DefaultPaths() (Paths, error) { return daemonpath.Default() }

// PathsFor returns the paths of a daemon on the named socket; an empty
// socket means [DefaultPaths] (see [daemonpath.For]).
func PathsFor(socket string) (Paths, error) { return daemonpath.For(socket) }
