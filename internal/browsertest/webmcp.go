package browsertest

import (
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"testing"
)

var (
	majorOnce sync.Once
	majorNum  int
)

// chromeMajor is the test browser's major version, or 0 when its
// --version does not say.
func chromeMajor(t testing.TB) int {
	path := Chrome(t)
	majorOnce.Do(func() {
		out, err := exec.Command(path, "--version").Output()
		if err != nil {
			return
		}
		if m := regexp.MustCompile(`\b(\d+)\.\d+\.\d+`).FindSubmatch(out); m != nil {
			majorNum, _ = strconv.Atoi(string(m[1]))
		}
	})
	return majorNum
}

// ToolAnnotationsHidden reports whether the test browser's DevTools
// leaves a page tool's annotations out of WebMCP.toolsAdded, as Chromium
// 148 does (its agent never sets them; seen 2026-12-06): no tool then
// reads as read-only, and every call of one needs approval, the safe side.
// The page-tool tests assert that side on such a browser, and the
// read-only one on others; a browser that changes either way fails them.
func ToolAnnotationsHidden(t testing.TB) bool {
	return chromeMajor(t) == 148
}
