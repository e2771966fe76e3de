package verify

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/internal/wait"
)

// Poll is the one "check until it holds" loop: a replay's verify and if
// steps, the agent loop's expected effects and a test plan's expect steps
// all wait for a fact with it, so they agree on when to look again and
// when to give up.
type Poll struct {
	// Wait is how long after the first look the last may start; zero or
	// less means one look.
	Wait time.Duration
	// Every is the pause between looks; zero means 100 ms.
	Every time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Until calls once until it reports done or an error, or Wait has passed
// (the look that finds the deadline passed is the last), or ctx ends. It
// returns once's error, or ctx's; a fact that never held is not an error:
// once's caller keeps what the last look saw.
func (p Poll) Until(ctx context.Context, once func(ctx context.Context) (done bool, err error)) error {
	now := p.Now
	if now == nil {
		now = time.Now
	}
	every := p.Every
	if every <= 0 {
		every = 100 * time.Millisecond
	}
	deadline := now().Add(p.Wait)
	for {
		done, err := once(ctx)
		if err != nil || done || p.Wait <= 0 || !now().Before(deadline) {
			return err
		}
		if err := wait.Sleep(ctx, every); err != nil {
			return err
		}
	}
}
