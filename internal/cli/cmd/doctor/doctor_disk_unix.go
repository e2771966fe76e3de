//go:build unix

package doctor

import "syscall"

// freeSpace returns the bytes an unprivileged user may still write on
// path's file system.
func freeSpace(path string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}
