package anthropic

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/waymark-dev/waymark/pilot"
)

// hangingAPI is a Messages API on loopback that never answers a request
// (it waits for the client to give up) and counts the tries.
func hangingAPI(t *testing.T) (string, *atomic.Int32) {
	var tries atomic.Int32
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries.Add(1)
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first: the handlers end, then the server
	return srv.URL, &tries
}

// triesSeen waits (5 s at most) until the server has counted want tries,
// and returns its count. A try the client gave up on reaches the handler
// late on a loaded machine: the request sits in the socket until the
// server's goroutine runs, after the client has returned (CI counted 2 of
// 3 tries so).
func triesSeen(tries *atomic.Int32, want int32) int32 {
	deadline := time.Now().Add(5 * time.Second)
	for tries.Load() < want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return tries.Load()
}

// TestSDKRetriesWouldRetryATimeout is why waymark keeps its own retries
// (internal/model/modelhttp) with the SDK's turned off (issue 28 asked):
// the SDK takes a try that ran out of time for a connection error and
// sends the prompt again, so a model that hangs costs MaxRetries+1 full
// timeouts (three minutes at the defaults) and is billed each time;
// waymark's Model gives up after the one try with ErrModelTimeout. The
// SDK also honours any Retry-After, an hour too, where waymark waits 30s
// at most. If a release of the SDK stops retrying timeouts, this test
// fails: look again.
func TestSDKRetriesWouldRetryATimeout(t *testing.T) {
	url, tries := hangingAPI(t)
	sdk := anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithHeader("X-Api-Key", testKey), option.WithBaseURL(url),
		option.WithMaxRetries(2), option.WithRequestTimeout(100*time.Millisecond))
	_, err := sdk.Messages.New(context.Background(), anthropic.MessageNewParams{Model: DefaultModel, MaxTokens: 10,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}})
	if err == nil {
		t.Fatal("the hanging API answered")
	}
	if n := triesSeen(tries, 3); n != 3 {
		t.Errorf("with the SDK's retries a timed-out call was tried %d times; this test expects 3 (the reason waymark keeps its own)", n)
	}

	url, tries = hangingAPI(t)
	m := newTestModel(t, url, func(o *Options) { o.Timeout, o.MaxRetries = 100*time.Millisecond, 2 })
	if _, err := m.Next(context.Background(), pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}}); !errors.Is(err, pilot.ErrModelTimeout) {
		t.Fatalf("waymark's Model: %v, want ErrModelTimeout", err)
	}
	if n := triesSeen(tries, 1); n != 1 {
		t.Errorf("waymark's Model tried a timed-out call %d times, want 1", n)
	}
}

// TestDeadlineBoundsTheWholeCall: a caller's deadline ends the call while
// it waits out a Retry-After, with the tries counted on the wire.
func TestDeadlineBoundsTheWholeCall(t *testing.T) {
	var tries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "20")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`))
	}))
	t.Cleanup(srv.Close)
	m := newTestModel(t, srv.URL, func(o *Options) { o.MaxRetries = 2 })
	// The deadline leaves the first try time to reach the server on a
	// loaded machine (300 ms could run out before it: 0 tries) and still
	// comes well inside the 20 s wait.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := m.Next(ctx, pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}})
	if err == nil {
		t.Fatal("a rate-limited call succeeded")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the call took %s past a 2s deadline (Retry-After 20s)", d)
	}
	if n := tries.Load(); n != 1 {
		t.Errorf("%d tries, want 1 (the deadline came during the wait)", n)
	}
}
