// Package daemonpath finds the files of a waymark daemon (its socket, lock
// and log) and checks that they are the user's own. It is the one owner of
// where the daemon is: the daemon, its client and the thin front
// (cmd/waymark-front) all ask it. It imports nothing but the standard
// library's file and path packages, so that the front, which starts on
// every command, stays small.
package daemonpath

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Paths are the files of one daemon.
type Paths struct {
	Socket string // the Unix socket
	Lock   string // the lock a client holds while it starts a daemon
	Log    string // where a started daemon's stdout and stderr go

	// private says the socket's folder is ours alone: created 0700 and
	// checked to be owned by us. It is false for a socket the caller named,
	// which may sit in a shared folder such as /tmp.
	private bool
}

// Private reports whether the socket's folder is ours alone (the default
// paths): [Paths.Prepare] made it 0700, so a socket bound there is closed
// to others from the start.
func (p Paths) Private() bool { return p.private }

// MaxSocket is the room in sockaddr_un.sun_path, less the NUL: 108 on
// Linux, 104 on the BSDs and macOS. The smaller is used everywhere.
const MaxSocket = 103

// Default returns the paths of the user's daemon. The socket is
// daemon.sock in [RuntimeDir]; the lock sits beside it. The log is
// daemon.log in waymark's folder of the user cache dir (which outlives
// the runtime folder), or beside the socket when there is no cache dir
// (no $HOME, as an MCP client may start waymark with).
func Default() (Paths, error) {
	run := RuntimeDir(os.Getenv, os.Getuid(), os.Stat)
	state := run
	if cache, err := os.UserCacheDir(); err == nil {
		state = filepath.Join(cache, "waymark")
	}
	return Paths{
		Socket:  filepath.Join(run, "daemon.sock"),
		Lock:    filepath.Join(run, "daemon.lock"),
		Log:     filepath.Join(state, "daemon.log"),
		private: true,
	}, nil
}

// RuntimeDir is the folder of the user's daemon socket, found the same
// way by every process of the user whatever its environment, so that a
// shell and an MCP client started with a minimal environment (no
// XDG_RUNTIME_DIR, no HOME) reach the same daemon:
//
//   - $XDG_RUNTIME_DIR/waymark, when it is set to an absolute path;
//   - else /run/user/UID/waymark when /run/user/UID exists (what
//     XDG_RUNTIME_DIR is on a systemd machine, set or not);
//   - else waymark-UID in the temporary folder (closed to others by
//     [Paths.Prepare]).
func RuntimeDir(getenv func(string) string, uid int, stat func(string) (os.FileInfo, error)) string {
	if rt := getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		return filepath.Join(rt, "waymark")
	}
	if uid >= 0 {
		sys := filepath.Join("/run/user", strconv.Itoa(uid))
		if fi, err := stat(sys); err == nil && fi.IsDir() {
			return filepath.Join(sys, "waymark")
		}
		return filepath.Join(os.TempDir(), "waymark-"+strconv.Itoa(uid))
	}
	// No uids (Windows): the temporary folder is per user there.
	return filepath.Join(os.TempDir(), "waymark")
}

// For returns the paths of a daemon on the named socket: the lock and
// the log are named after it (daemon.sock.lock, daemon.sock.log). An empty
// socket means [Default].
func For(socket string) (Paths, error) {
	if socket == "" {
		return Default()
	}
	abs, err := filepath.Abs(socket)
	if err != nil {
		return Paths{}, err
	}
	return Paths{Socket: abs, Lock: abs + ".lock", Log: abs + ".log"}, nil
}

// Prepare makes the folders of p. For the default paths it also checks that
// the socket's folder belongs to this user and is closed to others (0700),
// so that nobody else can listen in our place.
func (p Paths) Prepare() error {
	if len(p.Socket) > MaxSocket {
		return fmt.Errorf("socket path %s is %d bytes, over the %d a Unix socket allows; set WAYMARK_SOCKET to a shorter path",
			p.Socket, len(p.Socket), MaxSocket)
	}
	dir := filepath.Dir(p.Socket)
	if p.private {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("make the daemon's folder: %w", err)
		}
		if err := checkPrivateDir(dir); err != nil {
			return err
		}
	}
	if ldir := filepath.Dir(p.Log); ldir != dir {
		if err := os.MkdirAll(ldir, 0o700); err != nil {
			return fmt.Errorf("make the folder of the daemon's log: %w", err)
		}
	}
	return nil
}

// CheckOwner returns an error when the socket's folder (for the default
// paths) or the socket itself belongs to another user. A missing socket is
// no error. Clients call it before they dial, so as not to send a request,
// which may carry typed secrets, to another user's listener.
func (p Paths) CheckOwner() error {
	if p.private {
		if err := checkPrivateDir(filepath.Dir(p.Socket)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	err := CheckFileOwner(p.Socket)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// checkPrivateDir checks that dir is ours and closed to others, closing it
// if it is ours and open.
func checkPrivateDir(dir string) error {
	if err := CheckFileOwner(dir); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("close the daemon's folder to other users: %w", err)
		}
	}
	return nil
}
