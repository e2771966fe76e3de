package wait_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/wait"
)

// never is longer than any test runs: a wait of it that returns was ended
// by its context or its channel, not by its timer.
const never = time.Hour

func TestSleep(t *testing.T) {
	t.Parallel()
	live := context.Background()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"live, zero", live, 0, nil},
		{"live, negative", live, -time.Second, nil},
		{"live, a nanosecond", live, time.Nanosecond, nil},
		{"canceled, zero", canceled, 0, context.Canceled},
		{"canceled, negative", canceled, -time.Second, context.Canceled},
		{"canceled, a nanosecond", canceled, time.Nanosecond, context.Canceled},
		{"canceled, long", canceled, never, context.Canceled},
		{"past its deadline, zero", expired, 0, context.DeadlineExceeded},
		{"past its deadline, long", expired, never, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := wait.Sleep(tt.ctx, tt.d); !errors.Is(err, tt.want) {
				t.Errorf("Sleep(%s) = %v, want %v", tt.d, err, tt.want)
			}
		})
	}
}

// TestSleepEndsWithItsContext: a context canceled during a long sleep ends
// it. The bound is generous: it only tells a sleep that ended from one
// that waits out its timer.
func TestSleepEndsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() { got <- wait.Sleep(ctx, never) }() // exits when ctx is canceled
	cancel()
	select {
	case err := <-got:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Sleep = %v, want %v", err, context.Canceled)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Sleep went on after its context was canceled")
	}
}

func TestClosed(t *testing.T) {
	t.Parallel()
	closed := make(chan struct{})
	close(closed)
	open := make(chan struct{})
	sent := make(chan struct{}, 1)
	sent <- struct{}{}
	tests := []struct {
		name string
		done <-chan struct{}
		d    time.Duration
		want bool
	}{
		{"closed, zero", closed, 0, true},
		{"closed, negative", closed, -time.Second, true},
		{"closed, a nanosecond", closed, time.Nanosecond, true},
		{"closed, long", closed, never, true},
		{"a value waiting, zero", sent, 0, true},
		{"open, zero", open, 0, false},
		{"open, negative", open, -time.Second, false},
		{"open, a nanosecond", open, time.Nanosecond, false},
		{"nil, zero", nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wait.Closed(tt.done, tt.d); got != tt.want {
				t.Errorf("Closed(%s) = %t, want %t", tt.d, got, tt.want)
			}
		})
	}
}

// TestClosedWhileWaiting: a channel closed during a long wait ends it, with
// true. As above, the bound only tells an ended wait from one that waits
// out its timer.
func TestClosedWhileWaiting(t *testing.T) {
	t.Parallel()
	done := make(chan struct{})
	got := make(chan bool, 1)
	go func() { got <- wait.Closed(done, never) }() // exits when done is closed
	close(done)
	select {
	case ok := <-got:
		if !ok {
			t.Error("Closed = false for a channel closed during the wait")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Closed went on after its channel closed")
	}
}
