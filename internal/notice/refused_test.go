package notice

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

func TestRefused(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   Input
		want []Notice
	}{
		{
			name: "401",
			in:   Input{Status: 401, Headers: headers("Www-Authenticate", "Basic")},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 401 Unauthorized: it wants credentials", Detail: map[string]string{"status": "401"}}},
		},
		{
			name: "403",
			in:   Input{Status: 403, Outline: doc("Forbidden", heading("Forbidden"))},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 403 Forbidden: access is forbidden", Detail: map[string]string{"status": "403"}}},
		},
		{
			name: "429 seconds",
			in:   Input{Status: 429, Headers: headers("Retry-After", "120")},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 429 Too Many Requests: too many requests; retry after 120 s", Detail: map[string]string{"status": "429", "retry_after": "120"}}},
		},
		{
			name: "429 date against now",
			in:   Input{Status: 429, Now: now, Headers: headers("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 429 Too Many Requests: too many requests; retry after 90 s", Detail: map[string]string{"status": "429", "retry_after": "90"}}},
		},
		{
			name: "429 date against the Date header",
			in:   Input{Status: 429, Headers: headers("Date", now.Format(http.TimeFormat), "Retry-After", now.Add(time.Hour).Format(http.TimeFormat))},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 429 Too Many Requests: too many requests; retry after 3600 s", Detail: map[string]string{"status": "429", "retry_after": "3600"}}},
		},
		{
			name: "429 date in the past",
			in:   Input{Status: 429, Now: now, Headers: headers("Retry-After", now.Add(-time.Minute).Format(http.TimeFormat))},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 429 Too Many Requests: too many requests; retry after 0 s", Detail: map[string]string{"status": "429", "retry_after": "0"}}},
		},
		{
			name: "429 date without a clock",
			in:   Input{Status: 429, Headers: headers("Retry-After", now.Format(http.TimeFormat))},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 429 Too Many Requests: too many requests; retry at 2026-03-01T12:00:00Z", Detail: map[string]string{"status": "429", "retry_at": "2026-03-01T12:00:00Z"}}},
		},
		{
			name: "429 unreadable Retry-After",
			in:   Input{Status: 429, Headers: headers("Retry-After", "soon")},
			want: []Notice{{Kind: calls.NoticeRefused, Message: "the site refused the page with HTTP 429 Too Many Requests: too many requests", Detail: map[string]string{"status": "429"}}},
		},
		{name: "200", in: Input{Status: 200}},
		{name: "404", in: Input{Status: 404}},
		{name: "unknown", in: Input{}},
		{name: "500", in: Input{Status: 500, Headers: headers("Retry-After", "3")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(tt.in)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Detect (-want +got):\n%s", d)
			}
		})
	}
}
