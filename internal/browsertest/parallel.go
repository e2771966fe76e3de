package browsertest

import (
	"flag"
	"strconv"
)

// Parallel lets n of the package's parallel tests run at once, unless the
// command line set -parallel; call it in TestMain before m.Run. go test's
// default is GOMAXPROCS (two on the CI machine), which suits tests that
// keep a core busy; a browser test mostly waits (for the page, a gate's
// watch, a probe's timing, a daemon), so two at a time leaves both cores
// idle much of the time: internal/adversarial used 130 s of CPU in 314 s of
// wall at two. Each such test has its own session or browser, so more at
// once changes none of what it proves.
func Parallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
