package modelhttp

import (
	"net/http"
	"testing"
	"time"
)

func TestRetrierWait(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	r := Retrier{Now: func() time.Time { return now }}
	tests := []struct {
		name   string
		header map[string]string
		tries  int
		want   time.Duration
	}{
		{name: "no header: first backoff", tries: 1, want: 500 * time.Millisecond},
		{name: "no header: doubles", tries: 3, want: 2 * time.Second},
		{name: "no header: capped", tries: 12, want: 30 * time.Second},
		{name: "seconds", header: map[string]string{"Retry-After": "4"}, tries: 1, want: 4 * time.Second},
		{name: "fractional seconds", header: map[string]string{"Retry-After": "0.25"}, tries: 1, want: 250 * time.Millisecond},
		{name: "huge seconds capped", header: map[string]string{"Retry-After": "1e300"}, tries: 1, want: 30 * time.Second},
		{name: "date", header: map[string]string{"Retry-After": now.Add(5 * time.Second).Format(http.TimeFormat)}, tries: 1, want: 5 * time.Second},
		{name: "date in the past", header: map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, tries: 1, want: 0},
		{name: "garbage falls back to backoff", header: map[string]string{"Retry-After": "soon"}, tries: 2, want: time.Second},
		{name: "negative falls back to backoff", header: map[string]string{"Retry-After": "-3"}, tries: 1, want: 500 * time.Millisecond},
		{name: "milliseconds", header: map[string]string{"Retry-After-Ms": "120"}, tries: 1, want: 120 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			if got := r.wait(h, tt.tries); got != tt.want {
				t.Errorf("wait = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestRetrierWithDefaults(t *testing.T) {
	tests := []struct {
		name       string
		maxRetries int
		want       int
	}{
		{name: "zero means the default", maxRetries: 0, want: DefaultMaxRetries},
		{name: "negative means none", maxRetries: -1, want: 0},
		{name: "positive is kept", maxRetries: 5, want: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Retrier{Model: "m", MaxRetries: tt.maxRetries, Timeout: time.Second}.WithDefaults()
			if r.MaxRetries != tt.want {
				t.Errorf("MaxRetries = %d, want %d", r.MaxRetries, tt.want)
			}
			if r.Sleep == nil || r.Now == nil || r.Log == nil {
				t.Errorf("WithDefaults left a nil: Sleep %t, Now %t, Log %t", r.Sleep == nil, r.Now == nil, r.Log == nil)
			}
			if r.Model != "m" || r.Timeout != time.Second {
				t.Errorf("WithDefaults changed Model or Timeout: %q, %s", r.Model, r.Timeout)
			}
		})
	}
}
