//go:build linux

package daemon

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// trimImage gives back the pages of the daemon's own executable that its
// mappings hold (its code and read-only data), keeping them in the page
// cache: the next touch of a page is a minor fault, no disk read. Start-up
// touches most of a 75 MB binary once (every package's init, fault-around
// mapping the neighbours of each touched page) and a resident daemon would
// otherwise keep ~45 MB of it mapped that it never runs again; what it does
// run comes back on its own. It returns the bytes advised (0 when the maps
// cannot be read).
func trimImage() int64 {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0
	}
	defer f.Close()
	var n int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// 00400000-02372000 r-xp 00000000 fd:01 123 /path/to/exe
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[5] != exe || strings.Contains(fields[1], "w") {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		// MADV_DONTNEED on a private, clean file mapping drops the page
		// table entries only: the file's pages stay in the page cache.
		if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED); e == 0 {
			n += int64(end - start)
		}
	}
	return n
}
