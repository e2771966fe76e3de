//go:build linux

package daemon

import (
	"net"
	"syscall"
)

// peerUID returns the user id of the process at the other end of a Unix
// socket connection (SO_PEERCRED), and false for a connection of another
// kind.
func peerUID(c net.Conn) (int, bool, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, false, nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if cerr != nil {
		return 0, false, cerr
	}
	return int(cred.Uid), true, nil
}
