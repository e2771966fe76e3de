package driver

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// WAYMARK_TRACE_CDP=FILE writes every CDP message of the package's browser
// to FILE, each line stamped with the milliseconds since the trace began,
// for finding the sequential round trips and the waits of a call
// (BenchmarkShopFlow marks where each step begins with TraceMark):
//
//	WAYMARK_TRACE_CDP=/tmp/cdp.log go test -run '^$' -bench ShopFlow -benchtime 3x ./driver/
var (
	traceMu    sync.Mutex
	traceFile  *os.File
	traceStart time.Time
)

func init() {
	path := os.Getenv("WAYMARK_TRACE_CDP")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	traceFile, traceStart = f, time.Now()
	cdpTrace = func(format string, args ...any) { traceLine(fmt.Sprintf(format, args...)) }
}

func traceLine(s string) {
	traceMu.Lock()
	defer traceMu.Unlock()
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	fmt.Fprintf(traceFile, "%9.3f %s\n", float64(time.Since(traceStart).Microseconds())/1000, s)
}

// TraceMark writes a marker line into the CDP trace, if one is written.
func TraceMark(what string) {
	if traceFile != nil {
		traceLine("=== " + what)
	}
}
