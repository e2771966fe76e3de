package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/waymark-dev/waymark/internal/daemon/daemonpath"
)

// ErrAlreadyRunning says another daemon answers on the socket.
var ErrAlreadyRunning = errors.New("a waymark daemon is already running")

// Listen listens on p.Socket, mode 0600 from the moment it exists. It dials first: if a daemon answers
// it returns an error wrapping [ErrAlreadyRunning]; otherwise it removes a
// stale socket file left by a daemon that died, and listens. It refuses to
// remove a file that is not a socket. (tailscale's safesocket does the same.)
func Listen(p Paths) (net.Listener, error) {
	if err := p.Prepare(); err != nil {
		return nil, err
	}
	if c, err := net.DialTimeout("unix", p.Socket, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("%w on %s; stop it with \"waymark daemon stop\"", ErrAlreadyRunning, p.Socket)
	}
	if fi, err := os.Lstat(p.Socket); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("%s exists and is not a socket; remove it or choose another path", p.Socket)
		}
		if err := daemonpath.CheckFileOwner(p.Socket); err != nil {
			return nil, err
		}
		if err := os.Remove(p.Socket); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("remove the stale socket: %w", err)
		}
	}
	if !p.Private() {
		return bindAside(p.Socket)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p.Socket, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", p.Socket, err)
	}
	// The folder is ours and closed to others (Prepare): nobody else can
	// reach the socket while its mode is set.
	if err := os.Chmod(p.Socket, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("make the socket private: %w", err)
	}
	return ln, nil
}

// bindAside listens on a socket the caller named, which may sit in a shared
// folder such as /tmp: bound where it was named, the socket would be open
// to every user between the bind and the chmod. So it is bound in a fresh
// folder of ours (mode 0700) beside it, made 0600, and only then renamed
// into place. The listener removes it when closed.
func bindAside(path string) (net.Listener, error) {
	dir, err := os.MkdirTemp(filepath.Dir(path), ".wm")
	if err != nil {
		return nil, fmt.Errorf("make a private folder beside the socket: %w", err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	if len(tmp) > daemonpath.MaxSocket {
		return nil, fmt.Errorf("socket path %s is too long to bind privately beside (%d bytes, over %d); set WAYMARK_SOCKET to a shorter path",
			path, len(tmp), daemonpath.MaxSocket)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(false) // it is renamed; asideListener removes it
	if err := os.Chmod(tmp, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("make the socket private: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		ln.Close()
		return nil, fmt.Errorf("put the socket in place: %w", err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		ln.Close()
		return nil, err
	}
	return &asideListener{UnixListener: ln, path: path, fi: fi}, nil
}

// asideListener removes its socket file when closed, unless another file
// has taken its place since.
type asideListener struct {
	*net.UnixListener
	path string
	fi   fs.FileInfo
}

func (l *asideListener) Close() error {
	err := l.UnixListener.Close()
	if fi, serr := os.Lstat(l.path); serr == nil && os.SameFile(fi, l.fi) {
		os.Remove(l.path)
	}
	return err
}
