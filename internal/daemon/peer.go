package daemon

import (
	"fmt"
	"net"
	"os"
)

// checkPeer refuses a connection from another user. The socket's mode and
// folder keep others out already; this holds when they do not (a socket
// made group- or world-writable, a folder shared on purpose), so a request,
// which may carry typed secrets, and the browser it drives answer only to
// the user who started the daemon.
func checkPeer(c net.Conn) error {
	uid, ok, err := peerUID(c)
	if err != nil {
		return fmt.Errorf("read the peer's credentials: %w", err)
	}
	if ok && uid != os.Getuid() {
		return fmt.Errorf("a process of user %d connected; this daemon serves user %d only", uid, os.Getuid())
	}
	return nil
}
