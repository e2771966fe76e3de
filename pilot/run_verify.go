package pilot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/internal/verify"
	"github.com/waymark-dev/waymark/routine"
)

// The verifier decides whether a step did what the model expected, from
// the page alone (invariant 9): the outline for elements and text, the
// URL and a field's value read from the page.

// settle is how long a failing check is retried while the page may still
// be updating, and how often.
const (
	settle      = 2 * time.Second
	settleEvery = 200 * time.Millisecond
)

// pageState is the page as the verifier compares it.
type pageState struct {
	url  string
	text string // the whole outline, not only the interactive lines
}

// look takes the page's state for a check.
func (r *run) look(ctx context.Context) (*pageState, error) {
	snap, err := r.snapshot(ctx, false)
	if err != nil {
		return nil, err
	}
	return &pageState{url: snap.URL, text: snap.Text}, nil
}

// verify checks an expectation against the page, waiting a little for a
// page that is still changing. before is the page just before the step.
func (r *run) verify(ctx context.Context, exp *expect, before *pageState) (*routine.Verdict, error) {
	var v *routine.Verdict
	poll := verify.Poll{Wait: r.settle(), Every: settleEvery, Now: r.opts.Now}
	err := poll.Until(ctx, func(ctx context.Context) (bool, error) {
		after, err := r.look(ctx)
		if err != nil {
			return false, err
		}
		v, err = r.check(ctx, exp, before, after)
		return err == nil && v.OK, err
	})
	if err != nil {
		return nil, err
	}
	v.Expected, v.Observed = r.p.mask(v.Expected), r.p.mask(v.Observed)
	return v, nil
}

func (r *run) settle() time.Duration {
	switch {
	case r.opts.VerifyWait < 0:
		return 0
	case r.opts.VerifyWait == 0:
		return settle
	}
	return r.opts.VerifyWait
}

// check judges every fact of exp once; all must hold. With no facts, the
// page must have changed.
func (r *run) check(ctx context.Context, exp *expect, before, after *pageState) (*routine.Verdict, error) {
	var expected, observed []string
	ok := true
	add := func(pass bool, want, saw string) {
		ok = ok && pass
		expected = append(expected, want)
		observed = append(observed, saw)
	}
	if exp == nil || exp.empty() {
		changed := before == nil || after.url != before.url || after.text != before.text
		saw := "the page did not change"
		if changed {
			saw = "the page changed"
		}
		add(changed, "the page changes", saw)
	}
	if exp != nil && exp.URLChangesTo != "" {
		url, err := page(ctx, func(ctx context.Context) (*calls.GetResult, error) {
			return r.p.d.Get(ctx, calls.GetRequest{What: "url"})
		})
		if err != nil {
			return nil, fmt.Errorf("read the URL: %w", err)
		}
		add(calls.MatchURL(exp.URLChangesTo, url.Value), "the URL matches "+exp.URLChangesTo, "the URL is "+url.Value)
	}
	if exp != nil && exp.Appears != nil {
		was, now := countElement(before, exp.Appears), countElement(after, exp.Appears)
		saw := fmt.Sprintf("%s: %d on the page, %d before", exp.Appears, now, was)
		add(now > was, exp.Appears.String()+" appears", saw)
	}
	if exp != nil && exp.Disappears != nil {
		was, now := countElement(before, exp.Disappears), countElement(after, exp.Disappears)
		saw := fmt.Sprintf("%s: %d on the page, %d before", exp.Disappears, now, was)
		add(now < was, exp.Disappears.String()+" disappears", saw)
	}
	if exp != nil && exp.TextAppears != "" {
		was, now := countText(before, exp.TextAppears), countText(after, exp.TextAppears)
		saw := fmt.Sprintf("the text is on the page %d times, %d before", now, was)
		add(now > was, fmt.Sprintf("the text %q appears", exp.TextAppears), saw)
	}
	if exp != nil && exp.FieldValue != nil {
		fv := exp.FieldValue
		want, err := r.vars.expand(fv.Value)
		if err != nil {
			return nil, err
		}
		got, err := page(ctx, func(ctx context.Context) (*calls.GetResult, error) {
			return r.p.d.Get(ctx, calls.GetRequest{What: "value", Target: "@" + fv.Ref})
		})
		saw := ""
		pass := false
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			saw = fmt.Sprintf("the field's value could not be read: %v", err)
		default:
			// The session shows a field holding a value typed as a
			// secret as its mark: the mark of the value wanted is that
			// value there.
			pass = strings.TrimSpace(got.Value) == strings.TrimSpace(want) ||
				strings.TrimSpace(got.Value) == strings.TrimSpace(r.p.opts.Secrets.Mask(want))
			saw = fmt.Sprintf("the field holds %q", got.Value)
			if pass && len(placeholders(fv.Value)) > 0 {
				saw = "the field holds the value of " + fv.Value
			}
		}
		add(pass, fmt.Sprintf("the field holds %q", fv.Value), saw)
	}
	return &routine.Verdict{OK: ok, Expected: strings.Join(expected, "; "), Observed: strings.Join(observed, "; ")}, nil
}

func (e *expect) empty() bool {
	return e.URLChangesTo == "" && e.Appears == nil && e.Disappears == nil && e.FieldValue == nil && e.TextAppears == ""
}

func (e *elementRef) String() string {
	role := e.Role
	if role == "" {
		role = "an element"
	}
	if e.Name == "" {
		return role
	}
	return fmt.Sprintf("%s %q", role, e.Name)
}

// countElement counts the outline lines with the element's role and a name
// that holds its name (case and spacing folded); a name the outline
// inferred (~"…") counts as a name.
func countElement(s *pageState, e *elementRef) int {
	if s == nil {
		return 0
	}
	role, name := strings.ToLower(strings.TrimSpace(e.Role)), verify.Fold(e.Name)
	n := 0
	for _, line := range strings.Split(s.text, "\n") {
		l, ok := outline.ParseLine(line)
		if !ok {
			continue
		}
		if role != "" && strings.ToLower(l.Role) != role {
			continue
		}
		if name != "" && !strings.Contains(verify.Fold(l.Name), name) {
			continue
		}
		n++
	}
	return n
}

func countText(s *pageState, want string) int {
	if s == nil {
		return 0
	}
	return verify.Count(s.text, want)
}

// breaker weighs the latest verdicts and trips when too many failed.
type breaker struct {
	window int
	rate   float64
	last   []bool // the latest verdicts, oldest first; true is a pass
}

// add records a verdict and reports whether the breaker trips, with the
// failures and the count it weighed.
func (b *breaker) add(ok bool) (trip bool, failed, of int) {
	b.last = append(b.last, ok)
	if len(b.last) > b.window {
		b.last = b.last[len(b.last)-b.window:]
	}
	for _, v := range b.last {
		if !v {
			failed++
		}
	}
	of = len(b.last)
	return of >= breakerMin && float64(failed)/float64(of) > b.rate, failed, of
}

// verdict feeds a verdict to the breaker, and ends the run when it trips.
func (r *run) verdict(ok bool) error {
	trip, failed, of := r.breaker.add(ok)
	if !trip {
		return nil
	}
	r.recovering(GuardBreaker, fmt.Sprintf("%d of the last %d checks failed, more than %.0f%%; stopping", failed, of, r.opts.FailRate*100))
	return fmt.Errorf("%w: %d of the last %d", ErrBreaker, failed, of)
}
