package anthropic

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// reply is one scripted HTTP answer of the fake API.
type reply struct {
	status int
	header map[string]string
	body   string
}

// seen is one request the fake API received.
type seen struct {
	method, path string
	header       http.Header
	body         map[string]any
}

// fakeAPI is an httptest server that answers with a script and records what
// it was sent. A request past the end of the script fails the test.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex // guards the fields below
	script []reply
	reqs   []seen
}

func newFakeAPI(t *testing.T, script ...reply) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	s := seen{method: r.Method, path: r.URL.Path, header: r.Header.Clone()}
	if err := json.Unmarshal(raw, &s.body); err != nil {
		f.t.Errorf("request body is not JSON: %v", err)
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, s)
	if len(f.script) == 0 {
		f.mu.Unlock()
		f.t.Errorf("unexpected request %d to %s", len(f.reqs), r.URL.Path)
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"unscripted"}}`, http.StatusTeapot)
		return
	}
	next := f.script[0]
	f.script = f.script[1:]
	f.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	for k, v := range next.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(next.status)
	_, _ = io.WriteString(w, next.body)
}

func (f *fakeAPI) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

// sleeps records the waits asked of Options.Sleep without waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// blockingServer accepts a request, reports it on started, and holds it
// until the client goes away or the test ends. aborted is closed when the
// handler sees the client's request context end.
func blockingServer(t *testing.T) (url string, started, aborted chan struct{}) {
	t.Helper()
	started, aborted = make(chan struct{}, 1), make(chan struct{})
	done := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		select {
		case started <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
			once.Do(func() { close(aborted) })
		case <-done:
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL, started, aborted
}
