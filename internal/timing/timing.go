// Package timing writes where a command's milliseconds go, for the
// benchmarks (bench/flow.sh with WM_TIMING=1): a daemon started with
// WAYMARK_TIMING=FILE appends one line per span to FILE,
//
//	START_UNIX_MICROS DURATION_MICROS NAME
//
// and the bench lays the spans over each step's wall time. With the
// variable unset (always, outside a benchmark) Span is one load of a
// boolean and returns a function that does nothing.
package timing

import (
	"fmt"
	"os"
	"sync"
	"time"
)

var (
	on   bool
	mu   sync.Mutex // guards file
	file *os.File
)

func init() {
	path := os.Getenv("WAYMARK_TIMING")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(os.Stderr, "waymark: WAYMARK_TIMING: %v (no timings written)\n", err)
		return
	}
	file, on = f, true
}

// On reports whether spans are written.
func On() bool { return on }

// Span starts a span named name and returns the function that ends it
// (and writes its line).
func Span(name string) func() {
	if !on {
		return nop
	}
	start := time.Now()
	return func() { write(start, time.Since(start), name) }
}

// Since writes a span named name from start to now (for a span whose
// start was taken before it was known to be one).
func Since(start time.Time, name string) {
	if on {
		write(start, time.Since(start), name)
	}
}

func nop() {}

func write(start time.Time, d time.Duration, name string) {
	line := fmt.Sprintf("%d %d %s\n", start.UnixMicro(), d.Microseconds(), name)
	mu.Lock()
	defer mu.Unlock()
	_, _ = file.WriteString(line)
}
