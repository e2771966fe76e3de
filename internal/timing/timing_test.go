package timing

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSpanWritesALineWhenOn: a span ended writes its start, duration and
// name; with timings off (the default) nothing is written anywhere.
func TestSpanWritesALineWhenOn(t *testing.T) {
	if on {
		t.Skip("WAYMARK_TIMING is set for this test process")
	}
	Span("off")() // a no-op: no file to write to
	path := filepath.Join(t.TempDir(), "timing.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	file, on = f, true
	t.Cleanup(func() { file, on = nil, false; f.Close() })
	before := time.Now()
	end := Span("look: capture")
	time.Sleep(2 * time.Millisecond)
	end()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.SplitN(strings.TrimSuffix(string(got), "\n"), " ", 3)
	if len(fields) != 3 || fields[2] != "look: capture" || strings.Count(string(got), "\n") != 1 {
		t.Fatalf("line %q: want START DURATION NAME", got)
	}
	start, _ := strconv.ParseInt(fields[0], 10, 64)
	dur, _ := strconv.ParseInt(fields[1], 10, 64)
	if start < before.UnixMicro() || start > time.Now().UnixMicro() || dur < 2000 {
		t.Fatalf("start %d (took at %d), duration %d µs (slept 2 ms)", start, before.UnixMicro(), dur)
	}
}
