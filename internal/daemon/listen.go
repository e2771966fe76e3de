package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"time"
)

// ErrAlreadyRunning says another daemon answers on the socket.
var ErrAlreadyRunning = errors.New("a waymark daemon is already running")

// Listen listens on p.Socket, mode 0600. It dials first: if a daemon answers
// it returns an error wrapping [ErrAlreadyRunning]; otherwise it removes a
// stale socket file left by a daemon that died, and listens. It refuses to
// remove a file that is not a socket. (tailscale's safesocket does the same.)
func Listen(p Paths) (*net.UnixListener, error) {
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
		if err := checkOwner(p.Socket); err != nil {
			return nil, err
		}
		if err := os.Remove(p.Socket); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("remove the stale socket: %w", err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p.Socket, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", p.Socket, err)
	}
	// The folder already keeps others out for the default paths; the mode
	// does it for a socket in a shared folder.
	if err := os.Chmod(p.Socket, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("make the socket private: %w", err)
	}
	return ln, nil
}
