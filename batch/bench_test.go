package batch

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/rpc"
)

// BenchmarkDemoShop runs a batch of the five-step add-to-cart routine on
// the demo shop with 1, 2, 4 and 8 browser contexts (one Chromium, a
// fresh one for each), and reports rows a minute, the median time from a
// lease request to a warm session, and the memory of a context (the
// browser's proportional set size over its processes, less the browser
// with no batch context, divided by the contexts). Rows default to 1,000;
// WAYMARK_BATCH_BENCH_ROWS sets fewer for a quick look:
//
//	go test ./batch -run '^$' -bench DemoShop -benchtime 1x -timeout 2h
func BenchmarkDemoShop(b *testing.B) {
	rows := 1000
	if v, err := strconv.Atoi(os.Getenv("WAYMARK_BATCH_BENCH_ROWS")); err == nil && v > 0 {
		rows = v
	}
	for _, n := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("contexts=%d", n), func(b *testing.B) {
			for range b.N {
				benchOnce(b, rows, n)
			}
		})
	}
}

func benchOnce(b *testing.B, rows, contexts int) {
	e, _, _ := testEngine(b, EngineOptions{})
	m := ownBrowserManager(b) // its memory is measured
	site, base := demoSite(b)
	_ = site
	rt := recordAddToCart(b, m, base)
	_ = rpc.Daemon{Caller: m}.CloseAllSessions(context.Background()) // the recording's
	baseKB := browserPSS()
	pool, err := e.NewPool("bench", []Endpoint{{Name: "local", Caller: m, Max: contexts}})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { // exits when cancel is called
		defer close(done)
		_ = e.Work(ctx, WorkerOptions{Name: "bench", Parallel: contexts, Pool: pool})
	}()
	defer func() { cancel(); <-done }()
	b.ResetTimer()
	spec, err := e.Submit(context.Background(), Spec{Routine: rt, Submits: "allow"}, rowsOf(rows, func(i int, f map[string]json.RawMessage) {
		f["id"] = json.RawMessage(fmt.Sprintf(`"%d"`, i%24+1))
		f["qty"] = json.RawMessage(`"1"`)
	}))
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	st := waitDone(b, e, spec.ID, 2*time.Hour)
	el := time.Since(start)
	b.StopTimer()
	if st.OK != rows {
		b.Fatalf("status %+v", st)
	}
	// The warm sessions are still open, each with its last page.
	perCtx := float64(browserPSS()-baseKB) / 1024 / float64(contexts)
	warm := pool.LeaseTimes()
	med := 0.0
	if len(warm) > 0 {
		med = float64(warm[len(warm)/2].Microseconds()) / 1000
	}
	b.ReportMetric(float64(rows)/el.Minutes(), "rows/min")
	b.ReportMetric(med, "lease-warm-ms")
	b.ReportMetric(perCtx, "MB/context")
	b.Logf("%d rows, %d contexts: %s, %.0f rows/min; lease to warm session median %.2f ms (%d warm leases); %.0f MB a context",
		rows, contexts, el.Round(time.Second), float64(rows)/el.Minutes(), med, len(warm), perCtx)
}

// browserPSS sums the proportional set size (kB) of this process's
// descendants: the browser's processes.
func browserPSS() int64 {
	parent := map[int]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		pid, _ := strconv.Atoi(filepath.Base(d))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	me := os.Getpid()
	var kids []int
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == me {
				kids = append(kids, pid)
				break
			}
		}
	}
	slices.Sort(kids)
	var total int64
	for _, pid := range kids {
		f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				total += n
				break
			}
		}
		f.Close()
	}
	return total
}
