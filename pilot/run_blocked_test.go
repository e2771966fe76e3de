package pilot_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

var (
	challenge = calls.Notice{Kind: "bot-check", Vendor: "cloudflare", Message: `"Verify you are human"`,
		Detail: map[string]string{"evidence": "header cf-mitigated: challenge"}}
	interstitial = calls.Notice{Kind: "bot-check", Vendor: "cloudflare", Message: `"Just a moment..."`,
		Detail: map[string]string{"evidence": "header cf-mitigated: challenge", "may_clear": "true"}}
	denial = calls.Notice{Kind: "blocked", Vendor: "datadome", Message: "access denied by DataDome"}
)

// behind puts the shop's home page behind a notice for its first looks
// (for every look when looks is 0), and makes it the current page.
func behind(s *site, n calls.Notice, looks int) {
	s.pages[homeURL].notices = func(s *site) []calls.Notice {
		if looks > 0 && s.snaps > looks {
			return nil
		}
		return []calls.Notice{n}
	}
	s.cur = homeURL
}

// TestRunStopsAtABotCheck: a page behind a bot check stops the run before
// the model is asked, with reason blocked; a check that may clear by
// itself is looked at once more first.
func TestRunStopsAtABotCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		notice calls.Notice
		looks  int // looks taken before the run stopped
		words  string
	}{
		{"challenge", challenge, 1, "a person must pass it"},
		{"denial", denial, 1, "retrying will not get past it"},
		{"may clear but does not", interstitial, 2, "a person must pass it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite()
			behind(s, tc.notice, 0)
			m := scripted.New()
			var ev events
			o := runOpts(&ev)
			o.BotCheckWait = time.Millisecond
			res, err := pilot.New(s, m, nil).Run(context.Background(), "Buy a lamp", o)
			if !errors.Is(err, pilot.ErrBlocked) {
				t.Fatalf("err = %v", err)
			}
			if !strings.Contains(err.Error(), "("+tc.notice.Vendor+")") || !strings.Contains(err.Error(), tc.words) {
				t.Errorf("the error does not name the vendor and what to do: %v", err)
			}
			if len(m.Calls()) != 0 || res.ModelCalls != 0 {
				t.Errorf("%d model calls at a bot check", len(m.Calls()))
			}
			if res.Done || res.Reason != "blocked" || res.Steps != 0 {
				t.Errorf("result %+v", res)
			}
			if s.snaps != tc.looks || s.actCount() != 0 || len(s.opened) != 0 {
				t.Errorf("%d looks, %d acts, opened %v", s.snaps, s.actCount(), s.opened)
			}
			last := ev.list[len(ev.list)-1]
			if last.Type != pilot.EventError || !strings.Contains(last.Error, tc.notice.Vendor) || last.Summary == nil || last.Summary.Reason != "blocked" {
				t.Errorf("last event %+v", last)
			}
			if got := ev.count(pilot.EventRecovering, pilot.GuardBlocked); got != tc.looks {
				t.Errorf("%d recovering events, want %d: %s", got, tc.looks, ev.json(t))
			}
		})
	}
}

// TestRunWaitsOnceForACheckThatClears: a check that clears by itself is
// gone at the second look, and the run goes on.
func TestRunWaitsOnceForACheckThatClears(t *testing.T) {
	s := newSite()
	behind(s, interstitial, 1)
	m := scripted.New(decide(`{"thought":"the shop is open","action":{"type":"done","expect":{"text_appears":"Shop"}}}`))
	var ev events
	o := runOpts(&ev)
	o.BotCheckWait = time.Millisecond
	res, err := pilot.New(s, m, nil).Run(context.Background(), "Open the shop", o)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	m.Verify(t)
	if !res.Done || res.ModelCalls != 1 {
		t.Errorf("result %+v", res)
	}
	if got := ev.count(pilot.EventRecovering, pilot.GuardBlocked); got != 1 {
		t.Errorf("%d recovering events: %s", got, ev.json(t))
	}
}

// TestRunBotCheckWaitIsCanceled: the wait ends with the run's context.
func TestRunBotCheckWaitIsCanceled(t *testing.T) {
	s := newSite()
	behind(s, interstitial, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ev events
	o := runOpts(&ev)
	o.BotCheckWait = time.Hour
	o.OnEvent = func(e pilot.Event) {
		ev.on(e)
		if e.Guard == pilot.GuardBlocked {
			cancel()
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := pilot.New(s, scripted.New(), nil).Run(ctx, "Open the shop", o)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, pilot.ErrCanceled) {
			t.Errorf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not end with the context")
	}
}

// TestOneShotsStopAtABotCheck: Act, Observe and Extract return ErrBlocked
// on a page behind a bot check, with no model call and no wait.
func TestOneShotsStopAtABotCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(p *pilot.Pilot) error
	}{
		{"act", func(p *pilot.Pilot) error {
			_, err := p.Act(context.Background(), "click Sign in", nil)
			return err
		}},
		{"observe", func(p *pilot.Pilot) error {
			_, err := p.Observe(context.Background(), "where do I sign in?")
			return err
		}},
		{"extract", func(p *pilot.Pilot) error {
			_, err := p.Extract(context.Background(), "the heading", json.RawMessage(`{"type":"string"}`))
			return err
		}},
	} {
		for _, n := range []calls.Notice{interstitial, denial} {
			t.Run(tc.name+"/"+n.Kind, func(t *testing.T) {
				s := newSite()
				behind(s, n, 0)
				m := scripted.New()
				err := tc.call(pilot.New(s, m, nil))
				if !errors.Is(err, pilot.ErrBlocked) || !strings.Contains(err.Error(), n.Vendor) {
					t.Fatalf("err = %v", err)
				}
				if len(m.Calls()) != 0 || s.actCount() != 0 || s.snaps != 1 {
					t.Errorf("%d model calls, %d acts, %d looks", len(m.Calls()), s.actCount(), s.snaps)
				}
			})
		}
	}
}
