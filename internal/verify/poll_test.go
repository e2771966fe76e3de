package verify

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The loop's edges: one look with no wait, looks until the fact holds,
// the last look starts at the deadline, an error ends it at once, a
// canceled context ends the pause.
func TestPollUntil(t *testing.T) {
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	looks := func(p Poll, holdsAt int, failAt int) (int, error) {
		n := 0
		err := p.Until(context.Background(), func(context.Context) (bool, error) {
			n++
			clock = clock.Add(time.Second) // each look takes a second of the fake clock
			if n == failAt {
				return false, errors.New("page gone")
			}
			return n == holdsAt, nil
		})
		return n, err
	}
	fast := time.Microsecond
	for _, c := range []struct {
		name          string
		p             Poll
		holdsAt, fail int
		wantN         int
		wantErr       bool
	}{
		{"no wait: one look", Poll{Wait: 0, Every: fast, Now: now}, 3, 0, 1, false},
		{"negative wait: one look", Poll{Wait: -1, Every: fast, Now: now}, 3, 0, 1, false},
		{"holds on the third", Poll{Wait: time.Minute, Every: fast, Now: now}, 3, 0, 3, false},
		{"never holds: the look past the deadline is the last", Poll{Wait: 5 * time.Second, Every: fast, Now: now}, 0, 0, 5, false},
		{"an error ends it", Poll{Wait: time.Minute, Every: fast, Now: now}, 0, 2, 2, true},
	} {
		n, err := looks(c.p, c.holdsAt, c.fail)
		if n != c.wantN || (err != nil) != c.wantErr {
			t.Errorf("%s: %d looks, err %v; want %d looks, error %v", c.name, n, err, c.wantN, c.wantErr)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Poll{Wait: time.Hour, Every: time.Hour}.Until(ctx, func(context.Context) (bool, error) {
		n++
		cancel()
		return false, nil
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Errorf("canceled during the pause: %d looks, %v", n, err)
	}
}
