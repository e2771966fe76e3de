// Package modelhttptest holds the test doubles the model providers' tests
// share: a scripted fake API, a recorder of the waits between tries, and a
// server that never answers.
package modelhttptest

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

// Reply is one scripted HTTP answer of the fake API.
type Reply struct {
	Status int
	Header map[string]string
	Body   string
}

// Request is one request the fake API received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
}

// FakeAPI is an httptest server that answers with a script and records what
// it was sent. A request past the end of the script fails the test.
type FakeAPI struct {
	t          *testing.T
	srv        *httptest.Server
	unscripted string // the body of the answer to a request past the script

	mu     sync.Mutex // guards the fields below
	script []Reply
	reqs   []Request
}

// NewFakeAPI starts a FakeAPI that answers with script, and a request past
// its end with HTTP 418 and the body unscripted, an error in the vendor's
// shape. The server is closed when the test ends.
func NewFakeAPI(t *testing.T, unscripted string, script ...Reply) *FakeAPI {
	t.Helper()
	f := &FakeAPI{t: t, unscripted: unscripted, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the server's base URL.
func (f *FakeAPI) URL() string { return f.srv.URL }

func (f *FakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	s := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	if err := json.Unmarshal(raw, &s.Body); err != nil {
		f.t.Errorf("request body is not JSON: %v", err)
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, s)
	if len(f.script) == 0 {
		f.mu.Unlock()
		f.t.Errorf("unexpected request %d to %s", len(f.reqs), r.URL.Path)
		http.Error(w, f.unscripted, http.StatusTeapot)
		return
	}
	next := f.script[0]
	f.script = f.script[1:]
	f.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	for k, v := range next.Header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(next.Status)
	_, _ = io.WriteString(w, next.Body)
}

// Requests returns the requests received so far.
func (f *FakeAPI) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// Sleeps records the waits asked of a provider's Options.Sleep without
// waiting. The zero value is ready to use.
type Sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

// Sleep records d and returns ctx.Err().
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

// Got returns the waits recorded so far.
func (s *Sleeps) Got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// BlockingServer accepts a request, reports it on started, and holds it
// until the client goes away or the test ends. aborted is closed when the
// handler sees the client's request context end.
func BlockingServer(t *testing.T) (url string, started, aborted chan struct{}) {
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
