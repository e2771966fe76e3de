package driver

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/calls"
)

// TestLogFloodCountsByThePageAndTheLag: a page is said to flood when it
// logs maxLogRate in a second of its own clock, or minFloodLog while its
// messages come over maxLogLag late; a heavy burst that comes late, and
// messages of a page before it came back from a crash, are no flood.
func TestLogFloodCountsByThePageAndTheLag(t *testing.T) {
	base := float64(time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC).UnixMilli())
	at := func(ms float64) time.Time { return time.UnixMilli(int64(ms)) }
	// count logs n messages spread over one second from start, each read
	// late after it was logged, and returns the message that was first
	// said to flood (0-based), or -1, and the error that says why.
	countWhy := func(tb *tab, start float64, n int, late float64) (int, error) {
		for i := range n {
			ms := start + float64(i)*999/float64(n)
			if why := tb.logFlood(ms, at(ms+late)); why != nil {
				return i, why
			}
		}
		return -1, nil
	}
	count := func(tb *tab, start float64, n int, late float64) int {
		i, _ := countWhy(tb, start, n, late)
		return i
	}
	cases := []struct {
		name  string
		n     int
		late  float64
		first int
		says  string // in the error, beside "console messages"
	}{
		{"a flood read at once", maxLogRate + 10, 5, maxLogRate - 1, "logged 2000"},
		{"a flood read late", 1200, 3000, minFloodLog - 1, "logged 500 console messages within a second (its own, or the browser's about its requests) while they reached waymark 3.0 s late"},
		{"a burst read late", minFloodLog - 1, 3000, -1, ""},
		{"a steady heavy page read at once", maxLogRate - 1, 5, -1, ""},
	}
	for _, c := range cases {
		tb := &tab{}
		tb.logFlood(base-5000, at(base-5000+5)) // the tab's usual lag: 5 ms
		got, why := countWhy(tb, base, c.n, c.late)
		if got != c.first {
			t.Errorf("%s: first said to flood at message %d, want %d", c.name, got, c.first)
		}
		if why != nil && (!strings.Contains(why.Error(), "console messages") || !strings.Contains(why.Error(), c.says) || calls.Hint(why) == "") {
			t.Errorf("%s: the error does not say why, or what to do: %v (hint %q)", c.name, why, calls.Hint(why))
		}
	}
	// A browser whose clock is 10 s behind ours: its lag is measured from
	// the least it had.
	tb := &tab{}
	if got := count(tb, base, 1200, 10000); got != -1 {
		t.Errorf("a clock set apart was taken for lag: flood at %d", got)
	}
	// Messages logged before the tab came back from its crash are not
	// counted, however many come.
	tb = &tab{logFrom: base + 5000}
	if got := count(tb, base, 3*maxLogRate, 5); got != -1 {
		t.Errorf("the old page's messages made a flood at %d", got)
	}
	// A tab back from its crash, in a browser whose clock is 10 s behind
	// ours: the new page's flood is counted (its messages are not taken
	// for the old page's), the old page's late ones are not.
	now := float64(time.Now().UnixMilli())
	tb = &tab{}
	tb.logFlood(now-10000-60000, at(now-60000)) // lag 10 s, the least
	tb.crashed = true
	tb.setSickLocked(false, false)
	if got := count(tb, now-10000-5000, 3*maxLogRate, 10000); got != -1 {
		t.Errorf("the old page's late messages made a flood at %d", got)
	}
	if got := count(tb, now-10000+100, maxLogRate+10, 10000); got != maxLogRate-1 {
		t.Errorf("the new page's flood was said at message %d, want %d", got, maxLogRate-1)
	}
}

// TestStoppedPageMessagesAreDropped: once a page is being stopped, its
// console messages still coming are counted as dropped, not kept, and
// never counted toward another flood.
func TestStoppedPageMessagesAreDropped(t *testing.T) {
	tb := &tab{stopped: logFloodErr(maxLogRate, 0), log: newPageLog()}
	now := runtime.Timestamp(time.Now().UnixMilli())
	for range 3 * maxLogRate {
		tb.onEvent(&runtime.EventConsoleAPICalled{Timestamp: now})
	}
	if got, gone := len(tb.log.console.items()), tb.log.console.dropped(); got != 0 || gone != 3*maxLogRate {
		t.Errorf("kept %d messages of a stopped page, dropped %d; want 0 and %d", got, gone, 3*maxLogRate)
	}
	if tb.logN != 0 {
		t.Errorf("a stopped page's messages were counted toward a flood: %d", tb.logN)
	}
}
