//go:build unix

package daemonpath

import (
	"fmt"
	"os"
	"syscall"
)

// CheckFileOwner returns an error if path belongs to another user.
func CheckFileOwner(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("%s belongs to user %d, not to you (%d); remove it or set WAYMARK_SOCKET to a path of your own", path, st.Uid, uid)
	}
	return nil
}
