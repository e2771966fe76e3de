// Package fanout measures one job over many subjects, one at a time and as
// a batch (see README.md); its eval has the build tag evals.
package fanout

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TreePSS sums the proportional set size, in KiB, of every process whose
// environment holds WAYMARK_SOCKET=socket: the daemon that socket names
// and the Chromium it started (children inherit the environment).
func TreePSS(socket string) int64 {
	want := []byte("WAYMARK_SOCKET=" + socket + "\x00")
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var total int64
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !bytes.Contains(append(env, 0), want) {
			continue
		}
		total += pss(filepath.Join(d, "smaps_rollup"))
	}
	return total
}

// pss reads the Pss line of a smaps_rollup file.
func pss(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// Sample measures TreePSS(socket) every 100 ms until the returned stop is
// called, which gives the peak in KiB.
func Sample(socket string) (stop func() int64) {
	var (
		mu   sync.Mutex
		peak int64
	)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			if v := TreePSS(socket); v > 0 {
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
