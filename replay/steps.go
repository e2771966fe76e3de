package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/internal/verify"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
)

// gotoStep opens the URL and checks that it landed where it did when
// recorded: the same path, no error status, no sign-in page that was not
// there.
func (x *run) gotoStep(ctx context.Context, s *routine.Step, rw *row, sr *StepResult) error {
	u, err := x.expand(s.URL, rw)
	if err != nil {
		return err
	}
	// The page left forgets what its gate stopped after a step (late.go).
	if err := x.lateStop(ctx); err != nil {
		return err
	}
	asked := x.asked
	x.asked = false
	info, err := x.d.Open(ctx, calls.OpenRequest{URL: u})
	if err != nil {
		if errors.Is(err, calls.ErrNavigation) || errors.Is(err, calls.ErrBlockedURL) {
			// The driver's words mostly name the URL already ("could not
			// open URL: net::…", "blocked URL: …"): said once.
			msg := err.Error()
			if !strings.Contains(msg, u) {
				msg = "could not open " + u + ": " + msg
			}
			return stopf(CauseLandedAway, "%s", x.known.Redact(msg))
		}
		return err
	}
	sr.Detail = info.URL
	x.onSignIn = s.Landed != nil && s.Landed.SignIn
	if !x.onSignIn {
		snap, err := x.d.Snapshot(ctx, calls.SnapshotRequest{Unseen: true})
		if err != nil {
			return err
		}
		if routine.SignIn(snap.Notices) {
			return stopf(CauseSignIn, "%s opened a sign-in page (%s), which the routine did not record", x.known.Redact(u), routine.PagePath(info.URL))
		}
		if asked {
			if err := x.stoppedIn(snap.Notices); err != nil {
				return err
			}
		}
	}
	if info.Status >= 400 && (s.Landed == nil || s.Landed.Status != info.Status) {
		return stopf(CauseLandedAway, "%s answered HTTP %d (%s)", x.known.Redact(u), info.Status, routine.PagePath(info.URL))
	}
	if ok, got, want := routine.Arrived(s.Landed, u, info.URL); !ok {
		return stopf(CauseLandedAway, "%s landed on %s, not on %s as recorded", x.known.Redact(u), x.known.Redact(got), x.known.Redact(want))
	}
	return nil
}

// resolve finds a step's element on the page now. Found and moved give a
// ref (moved records a heal and updates the target). Otherwise a sign-in
// page the routine did not record stops it as sign-in; if not, missing
// heals with the model when there is one, and replaced and ambiguous
// stop.
func (x *run) resolve(ctx context.Context, s *routine.Step, t *routine.Target, path string, rw *row, sr *StepResult) (string, error) {
	req := calls.FindRequest{Locator: t.Locator, Fingerprint: t.Fingerprint}
	if t.Positional && rw != nil {
		req.Positional, req.Row = true, rw.index
	}
	res, err := x.d.Find(ctx, req)
	if err != nil {
		return "", err
	}
	switch res.Status {
	case calls.Found:
		return res.Ref, nil
	case calls.Moved:
		h := &Heal{Step: stepName(s, path), Path: path, How: HealMoved, Before: t.Locator, After: res.Locator, Reason: res.Reason}
		if !req.Positional {
			x.refresh(ctx, t, res.Ref, res.Locator)
		}
		x.heal(h, sr)
		return res.Ref, nil
	case calls.Replaced, calls.Ambiguous, calls.Missing:
	default:
		return "", fmt.Errorf("find answered an unknown status %q", res.Status)
	}
	// Not found on about:blank before any goto: the routine has no start
	// page, and neither a heal nor a model can find an element on no page.
	if err := x.noStartPage(ctx, s, t, path); err != nil {
		return "", err
	}
	// Not found: if the page is a sign-in wall the routine did not
	// expect (a click that landed on one, a session that ran out), that
	// is the cause, and neither a heal nor a model call can get past it.
	if err := x.signInWall(ctx, s, t, path); err != nil {
		return "", err
	}
	switch res.Status {
	case calls.Replaced:
		if x.model == nil {
			return "", stopf(CauseReplaced, "%s: a different control stands where %s was (%s); nothing was pressed", stepName(s, path), describe(t), reason(res))
		}
		// A rename in place: one heal call with the step's instruction
		// and the page. A pick is pressed only as the heal allows (a
		// submit is asked for again, actStep); none stays replaced.
		ref, err := x.healWithModel(ctx, s, t, path, sr, res.Candidates)
		var st *stop
		if errors.As(err, &st) && st.cause == CauseMissing {
			return "", stopf(CauseReplaced, "%s: a different control stands where %s was (%s), and the model chose none on the page; nothing was pressed",
				stepName(s, path), describe(t), reason(res))
		}
		return ref, err
	case calls.Ambiguous:
		return "", stopf(CauseAmbiguous, "%s: several elements fit %s (%s); nothing was pressed", stepName(s, path), describe(t), reason(res))
	case calls.Missing:
		if t.Fingerprint.Row != nil && !req.Positional {
			// The row it was recorded in is gone: a heal would find
			// another row's control, never the one meant.
			return "", stopf(CauseMissing, "%s: %s is not on the page (%s); nothing was pressed", stepName(s, path), describe(t), reason(res))
		}
		if x.model == nil {
			return "", stopf(CauseMissing, "%s: %s is not on the page (%s), and there is no model to heal with", stepName(s, path), describe(t), reason(res))
		}
	}
	return x.healWithModel(ctx, s, t, path, sr, nil)
}

// noStartPage stops the replay when a step's element was not found, no
// goto ran before it and the tab is on about:blank: the routine has no
// start page (it was recorded on a page it never opened), which the
// message says with how to add one, rather than sending the user to a
// model that could not heal it. A look that fails leaves the step's own
// cause to stand.
func (x *run) noStartPage(ctx context.Context, s *routine.Step, t *routine.Target, path string) error {
	if x.opened {
		return nil
	}
	u, err := x.d.Get(ctx, calls.GetRequest{What: "url"})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil
	}
	if u.Value != "" && u.Value != "about:blank" {
		return nil
	}
	return &stop{cause: CauseMissing, hint: routine.NoStartPageHint(),
		msg: fmt.Sprintf("%s: %s is not on the page: the routine has no start page (no goto before this step) and the tab is on about:blank; nothing was pressed",
			stepName(s, path), describe(t))}
}

// quietLook is a look at the page shown to no one (its outline is not
// the session's last look). A look that fails is no answer (nil, nil): the
// caller's own cause stands; only the replay's end (ctx) is an error.
func (x *run) quietLook(ctx context.Context) (*calls.Snapshot, error) {
	snap, err := x.d.Snapshot(ctx, calls.SnapshotRequest{Unseen: true})
	if err != nil {
		return nil, ctx.Err()
	}
	return snap, nil
}

// signInWall stops the replay as sign-in when the page now is a sign-in
// page and the routine did not record the step as acting on a sign-in
// form. It takes one look, shown to no one, and is asked only once a
// step's element was not found: a routine that itself signs in finds its
// form's fields, so it never gets here on a sign-in page that matches.
// A look that fails leaves the step's own cause to stand.
func (x *run) signInWall(ctx context.Context, s *routine.Step, t *routine.Target, path string) error {
	if x.onSignIn || signInTarget(s, t) {
		return nil
	}
	snap, err := x.quietLook(ctx)
	if snap == nil {
		return err
	}
	if !routine.SignIn(snap.Notices) {
		return nil
	}
	page := routine.PagePath(snap.URL)
	if snap.Title != "" {
		page = fmt.Sprintf("%s %q", page, snap.Title)
	}
	return stopf(CauseSignIn, "%s: the page is a sign-in page (%s), which the routine did not record; %s is not on it, and nothing was done",
		stepName(s, path), x.known.Redact(page), describe(t))
}

// signInWords are what the fields and buttons of a sign-in form say.
var signInWords = lazyre.New(`(?i)\b(sign[ _-]?in|log[ _-]?in|log[ _-]?on|password|passcode|user[ _-]?name)\b`)

// signInTarget reports a step recorded on a sign-in form: a password
// field, a secret typed in, or an element whose words, or those of the
// form or heading it sat in, say sign in.
func signInTarget(s *routine.Step, t *routine.Target) bool {
	fp := t.Fingerprint
	if strings.EqualFold(fp.Type, "password") || (s.Value != nil && s.Value.From == "secret") {
		return true
	}
	for _, w := range append([]string{fp.Name, fp.Label, fp.Placeholder, fp.Text, fp.ID, fp.TestID}, fp.Ancestors...) {
		if signInWords.MatchString(w) {
			return true
		}
	}
	return false
}

// refresh takes the moved element's evidence, so the healed version finds
// it by its locator next time. Without evidence the new locator is kept.
func (x *run) refresh(ctx context.Context, t *routine.Target, ref, loc string) {
	if loc != "" {
		t.Locator = loc
	}
	ev, err := x.d.Locate(ctx, calls.LocateRequest{Target: "@" + ref})
	if err != nil {
		return
	}
	if ev.Chosen != "" {
		t.Locator = ev.Chosen
	}
	t.Candidates, t.Frame, t.Fingerprint = ev.Candidates, ev.Frame, ev.Fingerprint
}

func (x *run) heal(h *Heal, sr *StepResult) {
	x.res.Heals = append(x.res.Heals, *h)
	sr.Heal = h
}

func reason(res *calls.Resolution) string {
	if res.Reason != "" {
		return res.Reason
	}
	return res.Status
}

// stepName names a step in messages: its id, or its path.
func stepName(s *routine.Step, path string) string {
	if s.ID != "" {
		return s.ID
	}
	return path
}

// describe names a recorded element for people: role "name".
func describe(t *routine.Target) string { return t.Describe() }

// healWithModel asks the model once, through the pilot, which element now
// serves the step, takes that element's evidence from the live page and
// checks its role against the recorded one: a model's choice of a
// different kind of control is refused as replaced. where are the
// controls that stand where the element stood, when one does.
func (x *run) healWithModel(ctx context.Context, s *routine.Step, t *routine.Target, path string, sr *StepResult, where []string) (string, error) {
	snap, err := x.d.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Full: true})
	if err != nil {
		return "", err
	}
	instruction := s.Instruction
	if instruction == "" {
		instruction = s.Op + " the recorded element" // its name is the page's: fenced in the heal prompt
	}
	p := x.pilot(x.model)
	healed, err := p.Heal(ctx, pilot.HealRequest{Instruction: instruction, Recorded: t.Fingerprint, Page: snap.Text, Candidates: where, Site: pilot.Site(snap.URL)})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", stopf(CauseMissing, "%s: %s is not on the page and the heal failed: %v", stepName(s, path), describe(t), err)
	}
	ref := healed.Ref
	ev, err := x.d.Locate(ctx, calls.LocateRequest{Target: "@" + ref})
	if err != nil {
		return "", err
	}
	if ev.Fingerprint.Role != t.Fingerprint.Role {
		return "", stopf(CauseReplaced, "%s: the model chose a %s %q where the recorded element was %s; nothing was pressed",
			stepName(s, path), ev.Fingerprint.Role, ev.Fingerprint.Name, describe(t))
	}
	h := &Heal{Step: stepName(s, path), Path: path, How: HealModel, Before: t.Locator, After: ev.Chosen, Reason: healed.Reason}
	if old, now := t.Fingerprint.Name, ev.Fingerprint.Name; old != now && old != "" && now != "" {
		x.learn(ctx, p, snap.URL, fmt.Sprintf("the %s %q is now %q", ev.Fingerprint.Role, old, now))
	}
	t.Locator, t.Candidates, t.Frame, t.Fingerprint = ev.Chosen, ev.Candidates, ev.Frame, ev.Fingerprint
	x.heal(h, sr)
	return ref, nil
}

// actStep performs one element operation on the resolved element.
func (x *run) actStep(ctx context.Context, s *routine.Step, path string, rw *row, sr *StepResult) error {
	// The driver reads an empty Submits as allow (a person chose the
	// element on the command line); a replay's default is ask.
	submits := x.opts.Submits
	if submits == "" {
		submits = SubmitsAsk
	}
	req := calls.ActRequest{Kind: s.Op, Key: s.Key, Submits: submits, Hand: !x.opts.NoHand}
	if s.Target != nil && s.Target.Place != "" && rw != nil && rw.recipe != nil {
		loc, err := x.placed(ctx, s, path, rw)
		if err != nil {
			return err
		}
		req.Target, sr.Detail = loc, fmt.Sprintf("row %d of the list", rw.at+1)
	} else if s.Target != nil {
		ref, err := x.resolve(ctx, s, s.Target, path, rw, sr)
		if err != nil {
			return err
		}
		req.Target, sr.Ref = "@"+ref, ref
		if sr.Heal != nil && sr.Heal.How == HealModel {
			// The model's pick of a step that sends, pays, deletes or
			// confirms is proposed again for approval, whatever the
			// replay allows: the model is not the one to approve it.
			req.Submits = SubmitsAsk
		}
	}
	v, err := x.value(s.Value, rw)
	if err != nil {
		return err
	}
	switch s.Op {
	case calls.ActFill, calls.ActType:
		req.Value = v
	case calls.ActSelect:
		if s.Value != nil {
			req.Values = append(req.Values, v)
		}
		for _, sv := range s.Values {
			one, err := x.value(sv, rw)
			if err != nil {
				return err
			}
			req.Values = append(req.Values, one)
		}
	case calls.ActUpload:
		req.Files, req.Dir = []string{v}, x.fileDir(s.Value)
	case calls.ActClick, calls.ActDblClick:
		req.Button, req.Count = s.Button, s.Count
	case calls.ActScroll:
		req.Direction, req.Pixels = s.Direction, s.Pixels
		if req.Direction == "" { // recorded before steps kept the direction
			req.Direction = "down"
			if req.Target != "" {
				req.Direction = "into-view"
			}
		}
	}
	out, err := x.pressApproved(ctx, s, path, req, sr)
	if met, ok := calls.PopupOf(err); ok {
		// A popup stopped or covered the step: closed with the routine's
		// dismissal, the step is taken again, once (popups.go).
		if err := x.meetPopup(ctx, s, path, met, sr); err != nil {
			return err
		}
		out, err = x.pressApproved(ctx, s, path, req, sr)
		if again, ok := calls.PopupOf(err); ok {
			return stopf(CausePopup, "%s: %s stood in the way again after it was closed; the step was not taken", stepName(s, path), again.Describe())
		}
	}
	if err != nil {
		if errors.Is(err, calls.ErrNeedsApproval) {
			return stopf(CauseNeedsApproval, "%s: %v%s", stepName(s, path), err, x.approvedNote(s, sr, err))
		}
		return err
	}
	x.asked = x.asked || req.Submits == SubmitsAsk
	if out != nil && out.Navigated {
		sr.Detail = out.URL
	}
	if s.Op == calls.ActClick || s.Op == calls.ActDblClick || s.Op == calls.ActPress {
		x.onSignIn = false // it may have left the recorded sign-in page
	}
	return nil
}

// verifyStep checks a fact about the page, waiting a little for it.
func (x *run) verifyStep(ctx context.Context, s *routine.Step, path string, rw *row, sr *StepResult) error {
	wait := x.opts.CheckTimeout
	if wait == 0 {
		wait = 5 * time.Second
	}
	ok, detail, err := x.check(ctx, s.Check, path, rw, wait)
	sr.Detail = detail
	if err != nil {
		return err
	}
	if !ok {
		// What the check waited for may be what a stopped send would
		// have brought (late.go).
		if err := x.lateStop(ctx); err != nil {
			return err
		}
		return stopf(CauseVerify, "%s: %s", stepName(s, path), detail)
	}
	return nil
}

// check decides a check, looking again every 100 ms up to wait (negative:
// one look). It returns whether it holds and what was seen.
func (x *run) check(ctx context.Context, c *routine.Check, path string, rw *row, wait time.Duration) (ok bool, detail string, err error) {
	err = verify.Poll{Wait: wait}.Until(ctx, func(ctx context.Context) (bool, error) {
		var err error
		ok, detail, err = x.checkOnce(ctx, c, rw)
		return ok, err
	})
	if err != nil {
		ok = false
	}
	return ok, detail, err
}

// checkOnce decides a check once with the one checker, its variables
// filled in from the row.
func (x *run) checkOnce(ctx context.Context, c *routine.Check, rw *row) (bool, string, error) {
	filled := *c
	var err error
	if filled.Text, err = x.expand(c.Text, rw); err != nil {
		return false, "", err
	}
	if filled.URL, err = x.expand(c.URL, rw); err != nil {
		return false, "", err
	}
	o := verify.Options{Redact: x.known.Redact}
	if rw != nil {
		o.Row = &rw.index
	}
	return verify.Check(ctx, x.d, &filled, o)
}

// extractStep reads data into the step's schema: by its recipe with no
// model when it has one (a recipe that no longer fits is learned again
// with one model call, a heal), else with the model.
func (x *run) extractStep(ctx context.Context, s *routine.Step, path string, sr *StepResult) error {
	var data []byte
	if s.Grid != nil {
		res, err := x.readGrid(ctx, s, path, sr)
		if err != nil {
			return err
		}
		data = res.Data
	} else if s.Recipe != nil {
		res, err := x.readList(ctx, s, path, s.Schema, x.now(), sr)
		if err != nil {
			return err
		}
		data = res.Data
	} else {
		if x.model == nil {
			return stopf(CauseNeedsModel, "%s: an extract step reads the page with a model, and none is configured", stepName(s, path))
		}
		p := x.pilot(x.model)
		res, err := p.Extract(ctx, s.Instruction, s.Schema)
		if err != nil {
			return err
		}
		if !res.OK {
			return stopf(CauseFailed, "%s: the data read does not fit the schema: %s", stepName(s, path), strings.Join(res.Problems, "; "))
		}
		data = res.Data
	}
	key := s.Into
	if key == "" {
		key = stepName(s, path)
	}
	x.res.Data[key] = data
	detail := fmt.Sprintf("%d bytes into %s", len(data), key)
	if (s.Recipe != nil || s.Grid != nil) && sr.Detail != "" {
		detail = sr.Detail + "; " + detail
	}
	sr.Detail = detail
	return nil
}
