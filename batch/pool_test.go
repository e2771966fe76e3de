package batch

import (
	"context"
	"testing"
	"time"
)

// TestPoolWarmSessions: a session given back is taken again warm by the
// next row of the same routine, its cookies cleared (kept when asked);
// another routine gets a fresh session.
func TestPoolWarmSessions(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	f := newFakeCaller()
	p, err := e.NewPool("w1", []Endpoint{{Name: "fake", Caller: f, Max: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	ctx := context.Background()
	l1, err := p.Acquire(ctx, "r1", false)
	if err != nil || l1.Warm {
		t.Fatalf("first lease: %+v, %v", l1, err)
	}
	first := l1.s.session
	l1.Release(ctx, false)
	l2, err := p.Acquire(ctx, "r1", false)
	if err != nil || !l2.Warm || l2.s.session != first || f.clearCount() != 1 {
		t.Fatalf("same routine: warm %v, session %s (first %s), %d clears", l2.Warm, l2.s.session, first, f.clearCount())
	}
	l2.Release(ctx, false)
	l3, _ := p.Acquire(ctx, "r1", true)
	if !l3.Warm || f.clearCount() != 1 {
		t.Errorf("keep cookies: warm %v, %d clears", l3.Warm, f.clearCount())
	}
	l3.Release(ctx, false)
	l4, err := p.Acquire(ctx, "r2", false)
	if err != nil || l4.Warm || l4.s.session == first {
		t.Fatalf("another routine: warm %v, session %s", l4.Warm, l4.s.session)
	}
	if f.open(first) {
		t.Errorf("the first routine's session is still open")
	}
	if got := p.LeaseTimes(); len(got) != 2 {
		t.Errorf("lease times %v, want 2 warm leases", got)
	}
}

// TestLeasesAcrossWorkers: an endpoint's maximum holds over every worker;
// the leases of a worker that died (no renewal) expire and another worker
// takes the place.
func TestLeasesAcrossWorkers(t *testing.T) {
	// Renewals come every third of the time to live: at 1 s, a renewal
	// late by 0.7 s on a loaded machine would let b in while a lives.
	const ttl = 3 * time.Second
	e, _, _ := testEngine(t, EngineOptions{LeaseTTL: ttl})
	f := newFakeCaller()
	ep := []Endpoint{{Name: "shared", Caller: f, Max: 1}}
	a, err := e.NewPool("a", ep)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.NewPool("b", ep)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	ctx := context.Background()
	if _, err := a.Acquire(ctx, "r", false); err != nil {
		t.Fatal(err)
	}
	// While a renews its lease, b waits, past the time to live: a lease
	// that was not renewed would have run out.
	short, cancel := context.WithTimeout(ctx, ttl*3/2)
	_, err = b.Acquire(short, "r", false)
	cancel()
	if err == nil {
		t.Fatal("b leased a place a holds")
	}
	// a dies: its renewals stop, its lease runs out, b gets the place.
	close(a.stop)
	a.wg.Wait()
	start := time.Now()
	wait, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := b.Acquire(wait, "r", false); err != nil {
		t.Fatalf("after a died: %v", err)
	}
	t.Logf("b leased %s after a stopped renewing", time.Since(start).Round(10*time.Millisecond))
}
