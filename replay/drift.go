package replay

import (
	"context"
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
)

// DriftReport says, step by step, whether a routine's elements still
// resolve on its pages, found without acting on anything.
type DriftReport struct {
	Name    string         `json:"name"`
	Version int            `json:"version"`
	Steps   []DriftStep    `json:"steps"`
	Counts  map[string]int `json:"counts"` // by status

	// unchecked counts the unreached steps drift could not check for a
	// reason a replay would meet too: no page opened before them (a
	// routine with no start URL), or a find that failed.
	unchecked int
}

// DriftStep is one step's element now.
type DriftStep struct {
	ID         string `json:"id,omitempty"`
	Path       string `json:"path"`
	Kind       string `json:"kind"`
	Status     string `json:"status"` // found, moved, replaced, missing, ambiguous, unreached, skipped; for goto: landed or elsewhere
	Locator    string `json:"locator,omitempty"`
	NewLocator string `json:"new_locator,omitempty"` // moved: the locator now
	Reason     string `json:"reason,omitempty"`
}

// Drift statuses beside the resolution statuses of calls.
const (
	DriftLanded    = "landed"    // a goto landed where it did when recorded
	DriftElsewhere = "elsewhere" // a goto did not (another path, an error status, a sign-in page)
	DriftUnreached = "unreached" // the step's page is reached only by acting (a click, a submit), which drift never does
	DriftSkipped   = "skipped"   // a popup dismissal whose popup is not open now: a replay skips it
)

// WouldStop reports that a replay would stop now: some element is
// replaced, missing or ambiguous, a page landed elsewhere, or steps come
// before any page could be opened (a routine with no start URL) or could
// not be looked for.
func (r *DriftReport) WouldStop() bool {
	return r.Counts[calls.Replaced]+r.Counts[calls.Missing]+r.Counts[calls.Ambiguous]+r.Counts[DriftElsewhere]+r.unchecked > 0
}

// WouldHeal reports that a replay would heal some element that moved,
// with no model. Unreached steps count for neither.
func (r *DriftReport) WouldHeal() bool { return r.Counts[calls.Moved] > 0 }

// Drift opens each page of a routine (each goto) and resolves the element
// of every act and verify step after it with the driver's Find, acting on
// nothing. A step after an act that may have navigated (a click, a press,
// a submit) is on a page drift cannot reach without acting: when its
// element is not on the page drift has, it is reported unreached rather
// than missing. Elements inside each are checked in the first row;
// elements inside if, when not on the page, are unreached too.
func Drift(ctx context.Context, d pilot.Driver, r *routine.Routine) (*DriftReport, error) {
	if err := routine.Validate(r); err != nil {
		return nil, err
	}
	w := &drifter{d: d, rep: &DriftReport{Name: r.Name, Version: r.Version, Steps: []DriftStep{}, Counts: map[string]int{}}, reached: false}
	if err := w.steps(ctx, r.Steps, "steps", false); err != nil {
		return nil, err
	}
	for _, s := range w.rep.Steps {
		w.rep.Counts[s.Status]++
	}
	return w.rep, nil
}

type drifter struct {
	d   pilot.Driver
	rep *DriftReport
	// reached: the page drift has is the page the next step ran on when
	// recorded (no act since the last goto that may have navigated).
	reached bool
	// opened: some goto landed, so there is a page at all.
	opened bool
}

func (w *drifter) steps(ctx context.Context, steps []routine.Step, where string, unsure bool) error {
	for i := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := &steps[i]
		path := fmt.Sprintf("%s[%d]", where, i)
		ds := DriftStep{ID: s.ID, Path: path, Kind: s.Kind}
		switch s.Kind {
		case routine.KindGoto:
			info, err := w.d.Open(ctx, calls.OpenRequest{URL: s.URL})
			ds.Locator = s.URL
			switch {
			case err != nil && (errors.Is(err, calls.ErrNavigation) || errors.Is(err, calls.ErrBlockedURL)):
				ds.Status, ds.Reason = DriftElsewhere, err.Error()
			case err != nil:
				return err
			default:
				ds.Status = DriftLanded
				arrived, got, want := routine.Arrived(s.Landed, s.URL, info.URL)
				if info.Status >= 400 && (s.Landed == nil || s.Landed.Status != info.Status) {
					ds.Status, ds.Reason = DriftElsewhere, fmt.Sprintf("HTTP %d", info.Status)
				} else if !arrived {
					ds.Status, ds.Reason = DriftElsewhere, fmt.Sprintf("landed on %s, not %s", got, want)
				} else if s.Landed == nil || !s.Landed.SignIn {
					if snap, err := w.d.Snapshot(ctx, calls.SnapshotRequest{Unseen: true}); err == nil && routine.SignIn(snap.Notices) {
						ds.Status, ds.Reason = DriftElsewhere, "a sign-in page the routine did not record"
					}
				}
			}
			w.opened = ds.Status == DriftLanded
			w.reached = w.opened
			w.rep.Steps = append(w.rep.Steps, ds)
			continue
		case routine.KindAct:
			if s.Target != nil && s.Target.Place != "" {
				continue // a control in a row is found at its place in each row as the replay reads it
			}
			unchecked := w.rep.unchecked
			if s.Target != nil {
				w.find(ctx, &ds, s.Target, unsure)
			}
			if s.Dismisses != nil {
				// A popup shows on some days: a replay skips its dismissal
				// when it is not open, and the dismissal goes nowhere.
				if ds.Status != calls.Found && ds.Status != calls.Moved && w.rep.unchecked == unchecked {
					ds.Status, ds.Reason = DriftSkipped, "the popup it closes is not open now ("+ds.Reason+"); a replay skips it"
				}
				break
			}
			if s.Op == calls.ActClick || s.Op == calls.ActDblClick || s.Op == calls.ActPress {
				w.reached = false // it may navigate: later pages are unsure
			}
		case routine.KindVerify:
			if s.Check.Element == nil {
				continue // text and URL checks need the page as the steps leave it
			}
			w.find(ctx, &ds, s.Check.Element, unsure)
		case routine.KindIf:
			if err := w.steps(ctx, s.Then, path+".then", true); err != nil {
				return err
			}
			if err := w.steps(ctx, s.Else, path+".else", true); err != nil {
				return err
			}
			continue
		case routine.KindEach:
			if err := w.steps(ctx, s.Do, path+".do", unsure); err != nil {
				return err
			}
			continue
		default:
			continue
		}
		if ds.Status != "" {
			w.rep.Steps = append(w.rep.Steps, ds)
		}
	}
	return nil
}

// find resolves one element without acting.
func (w *drifter) find(ctx context.Context, ds *DriftStep, t *routine.Target, unsure bool) {
	ds.Locator = t.Locator
	if !w.opened {
		ds.Status, ds.Reason = DriftUnreached, "no page of the routine could be opened before it"
		w.rep.unchecked++
		return
	}
	req := calls.FindRequest{Locator: t.Locator, Fingerprint: t.Fingerprint, Positional: t.Positional}
	res, err := w.d.Find(ctx, req)
	if err != nil {
		ds.Status, ds.Reason = DriftUnreached, err.Error()
		w.rep.unchecked++
		return
	}
	ds.Status, ds.Reason = res.Status, res.Reason
	if res.Status == calls.Moved {
		ds.NewLocator = res.Locator
	}
	if res.Status != calls.Found && res.Status != calls.Moved && (!w.reached || unsure) {
		ds.Status = DriftUnreached
		ds.Reason = fmt.Sprintf("not on the page drift can reach without acting (%s)", reason(res))
	}
}
