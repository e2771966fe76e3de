package notice

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// detectRefused turns a 401, 403 or 429 document status into a notice.
func detectRefused(in Input) (Notice, bool) {
	var why string
	switch in.Status {
	case http.StatusUnauthorized:
		why = "it wants credentials"
	case http.StatusForbidden:
		why = "access is forbidden"
	case http.StatusTooManyRequests:
		why = "too many requests"
	default:
		return Notice{}, false
	}
	d := map[string]string{"status": strconv.Itoa(in.Status)}
	msg := fmt.Sprintf("the site refused the page with HTTP %d %s: %s", in.Status, http.StatusText(in.Status), why)
	if secs, at, ok := retryAfter(in); ok {
		if at != "" {
			d["retry_at"] = at
			msg += "; retry at " + at
		} else {
			d["retry_after"] = strconv.Itoa(secs)
			msg += fmt.Sprintf("; retry after %d s", secs)
		}
	}
	return Notice{Kind: calls.NoticeRefused, Message: msg, Detail: d}, true
}

// retryAfter reads the Retry-After header: seconds, or an HTTP date turned
// into seconds from Input.Now or the response's Date header. With neither,
// the date is returned as at (RFC 3339).
func retryAfter(in Input) (secs int, at string, ok bool) {
	v := strings.TrimSpace(in.Headers.Get("Retry-After"))
	if v == "" {
		return 0, "", false
	}
	if n, err := strconv.Atoi(v); err == nil {
		return max(n, 0), "", true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, "", false
	}
	now := in.Now
	if now.IsZero() {
		if d, err := http.ParseTime(in.Headers.Get("Date")); err == nil {
			now = d
		}
	}
	if now.IsZero() {
		return 0, t.UTC().Format(time.RFC3339), true
	}
	return max(int(t.Sub(now).Round(time.Second)/time.Second), 0), "", true
}
