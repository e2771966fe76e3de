//go:build evals

package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/netlog"
)

// wire is a failed run's NetLog, summed up short: the requests the page
// made (Chromium's own left out), those that failed, the statuses, and
// the first failures. (The driver's one-line brief is the browser's,
// whose other sessions run other jobs meanwhile: the replay's own line
// on the failed step is the step's.)
type wire struct {
	Requests int            `json:"requests"`
	Failed   int            `json:"failed"`
	Statuses map[string]int `json:"statuses,omitempty"`
	First    []string       `json:"first_failures,omitempty"`
	Error    string         `json:"error,omitempty"`
	MS       int64          `json:"ms"` // the time the NetLog took to read
}

// wireOf reads the browser's NetLog over the run: the log is the
// browser's, so only the requests below the job's prefix count.
func wireOf(ctx context.Context, s *driver.Session, since time.Time, prefix string) *wire {
	w := &wire{Statuses: map[string]int{}}
	res, err := s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli()})
	if err != nil {
		w.Error = err.Error()
		return w
	}
	var sum netlog.Summary
	if err := json.Unmarshal(res.Summary, &sum); err != nil {
		w.Error = err.Error()
		return w
	}
	for _, r := range sum.Requests {
		if r.Background {
			continue
		}
		if u, err := url.Parse(r.URL); err != nil || !strings.HasPrefix(u.Path, prefix) {
			continue // another job's, or the NetLog's own flush
		}
		w.Requests++
		if r.Status != 0 {
			w.Statuses[strconv.Itoa(r.Status)]++
		}
		if r.Error != "" || r.Status >= 400 {
			w.Failed++
			if len(w.First) < 3 {
				path := r.URL
				if u, err := url.Parse(r.URL); err == nil {
					path = u.Path
				}
				what := r.Error
				if what == "" {
					what = strconv.Itoa(r.Status)
				}
				w.First = append(w.First, fmt.Sprintf("%s %s: %s", r.Method, path, what))
			}
		}
	}
	return w
}
