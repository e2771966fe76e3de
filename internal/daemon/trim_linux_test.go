//go:build linux

package daemon

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// exeRSS is the resident size of this process's mappings of its own
// executable, from /proc/self/smaps.
func exeRSS(t *testing.T) int64 {
	t.Helper()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Skip("no /proc/self/exe:", err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	var rss int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && fields[5] == exe
			continue
		}
		if kb, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			rss += n << 10
		}
	}
	return rss
}

// The pages of the executable that start-up mapped are given back: the
// mappings' resident size falls to a fraction, and the process goes on running its
// code, read again from the page cache.
func TestTrimImageGivesBackTheExecutable(t *testing.T) {
	before := exeRSS(t)
	if before < 4<<20 {
		t.Skipf("only %d KB of the executable resident: nothing to show", before>>10)
	}
	n := trimImage()
	after := exeRSS(t)
	if n == 0 {
		t.Fatal("trimImage advised no mapping")
	}
	// What the count itself runs comes back, with its neighbours (the
	// kernel maps 64 KB around a fault): about half of a small test binary.
	if after > before*3/4 {
		t.Errorf("the executable's resident pages went from %d KB to %d KB, want under three quarters", before>>10, after>>10)
	}
}
