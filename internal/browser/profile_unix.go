//go:build unix

package browser

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether a process with the id runs (or may: a
// process of another user answers EPERM, which counts as alive).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByMe reports whether path belongs to the current user.
func ownedByMe(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
