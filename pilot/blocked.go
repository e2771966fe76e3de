package pilot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/wait"
)

// ErrBlocked: the page is behind a bot check, or a bot-protection vendor
// denied the browser. Nothing in waymark solves, hides from or retries
// into a check (issue 7); the error names the vendor, and a person must
// pass the check in the browser. Run, Act, Observe and Extract return it
// instead of asking the model about a page it cannot use.
var ErrBlocked = errors.New("the page is behind a bot check")

// botCheckWait is how long a run waits, once, for a bot check that may
// clear by itself before it looks again (RunOptions.BotCheckWait).
const botCheckWait = 5 * time.Second

// blockedBy returns the first notice that stands the page behind a bot
// check: a challenge (bot-check) or a vendor's denial (blocked).
func blockedBy(notices []calls.Notice) (calls.Notice, bool) {
	for _, n := range notices {
		if n.Kind == calls.NoticeBotCheck || n.Kind == calls.NoticeBlocked {
			return n, true
		}
	}
	return calls.Notice{}, false
}

// mayClear says whether a notice is a bot check that clears by itself
// when the browser passes it (an interstitial that runs a script and
// reloads).
func mayClear(n calls.Notice) bool {
	return n.Kind == calls.NoticeBotCheck && n.Detail[calls.DetailMayClear] == "true"
}

// blockedError is [ErrBlocked] for a notice, with the vendor, what the
// page says, and what a person can do.
func blockedError(n calls.Notice) error {
	says := ""
	if n.Message != "" {
		says = ": " + n.Message
	}
	next := "a person must pass it in the browser, then run again"
	if n.Kind == calls.NoticeBlocked {
		next = "it denied this browser, and retrying will not get past it; a person must open the page themselves"
	}
	return fmt.Errorf("%w%s%s — %s", ErrBlocked, vendor(n), says, next)
}

// vendor is " (vendor)" for a notice that names one, else "".
func vendor(n calls.Notice) string {
	if n.Vendor == "" {
		return ""
	}
	return " (" + n.Vendor + ")"
}

// pageBlocked is the error for a page behind a bot check, or nil. Act,
// Observe and Extract call it on their look, before the model is asked,
// and do not wait.
func pageBlocked(snap *calls.Snapshot) error {
	if n, ok := blockedBy(snap.Notices); ok {
		return blockedError(n)
	}
	return nil
}

// pastBotCheck stops the run at a bot check before the model is asked. A
// check that may clear by itself gets one short wait and a second look;
// it returns that look when the check is gone.
func (r *run) pastBotCheck(ctx context.Context, snap *calls.Snapshot) (*calls.Snapshot, error) {
	n, ok := blockedBy(snap.Notices)
	if !ok {
		return snap, nil
	}
	if d := r.botCheckWait(); mayClear(n) && d > 0 {
		r.recovering(GuardBlocked, fmt.Sprintf("the page is behind a bot check%s that may clear by itself; looking again in %s", vendor(n), d))
		if err := wait.Sleep(ctx, d); err != nil {
			return nil, err
		}
		again, err := r.snapshot(ctx, true)
		if err != nil {
			return nil, fmt.Errorf("look at the page: %w", err)
		}
		if n, ok = blockedBy(again.Notices); !ok {
			return again, nil
		}
	}
	err := blockedError(n)
	r.recovering(GuardBlocked, err.Error()+"; stopping")
	return nil, err
}

func (r *run) botCheckWait() time.Duration {
	switch {
	case r.opts.BotCheckWait < 0:
		return 0
	case r.opts.BotCheckWait == 0:
		return botCheckWait
	}
	return r.opts.BotCheckWait
}
