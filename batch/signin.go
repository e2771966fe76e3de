package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/siteapi"
)

// A routine's api step may name a sign-in routine (its recipe's relogin):
// a call the site refuses as auth runs it once in the row's session and
// calls again (siteapi.Relogin). A worker cannot read that file (it may
// run on another machine, and the spec carries the routine inline, with
// no folder to find it from), so the batch bundles it: [Bundle] reads each
// one next to the routine file, through the approval authority, into
// [Spec.SignIns], each with its own word from the authority. A row gives
// the values of the sign-in routines' variables beside the routine's own
// ([Spec.Variables]), secrets by reference, masked like the rest.

// SignIn is a sign-in routine a batch carries, by the name its recipe
// gives it.
type SignIn struct {
	// Routine is the sign-in routine file (waymark.routine/1).
	Routine json.RawMessage `json:"routine"`
	// Approved is the approval authority's word on it, as Spec.Approved
	// is on the routine: its recorded submit (the Sign in button) is
	// pressed without asking only with it.
	Approved bool `json:"approved,omitempty"`
}

// Bundle reads the routine file at path for a batch, with every sign-in
// routine its api steps name (relative to the routine file, as a replay
// finds them), each through the approval authority a: what the submitting
// command reads and sends. It returns the spec with Routine, Name,
// Approved and SignIns set, and notes for the person: the routines whose
// recorded approvals are not theirs, so their rows ask before those
// submits.
func Bundle(a *approval.Authority, path string) (*Spec, []string, error) {
	r, raw, err := routine.LoadRaw(path)
	if err != nil {
		return nil, nil, calls.Errorf(calls.ErrBadInput, "name a routine file ("+calls.Cmd("run … --record FILE")+" makes one)", "read the routine: %v", err)
	}
	spec := &Spec{Routine: raw, Name: filepath.Base(path)}
	var notes []string
	trust := a.Check(path, raw)
	spec.Approved = trust.Holds(r)
	if len(approval.RecordedIn(r)) > 0 && !spec.Approved {
		notes = append(notes, trust.Why(r)+"; its rows ask before each recorded submit")
	}
	for _, name := range reloginsOf(r) {
		file := siteapi.ReloginPath(path, name)
		sr, sraw, err := routine.LoadRaw(file)
		if err != nil {
			return nil, nil, calls.Errorf(calls.ErrBadInput, "put the sign-in routine beside the routine file, or fix the recipe's relogin",
				"the sign-in routine %s (relogin of an api step): %v", name, err)
		}
		st := a.Check(file, sraw)
		b := SignIn{Routine: sraw, Approved: st.Holds(sr)}
		if len(approval.RecordedIn(sr)) > 0 && !b.Approved {
			notes = append(notes, "the sign-in routine "+name+": "+st.Why(sr)+"; its rows stop before signing in")
		}
		if spec.SignIns == nil {
			spec.SignIns = map[string]SignIn{}
		}
		spec.SignIns[name] = b
	}
	return spec, notes, nil
}

// reloginsOf lists the sign-in routines r's api steps name, each once, in
// step order (inside branches and loops too).
func reloginsOf(r *routine.Routine) []string {
	var out []string
	var walk func(steps []routine.Step)
	walk = func(steps []routine.Step) {
		for i := range steps {
			s := &steps[i]
			if s.API != nil && s.API.Relogin != "" && !slices.Contains(out, s.API.Relogin) {
				out = append(out, s.API.Relogin)
			}
			walk(s.Then)
			walk(s.Else)
			walk(s.Do)
			walk(s.Fallback)
		}
	}
	walk(r.Steps)
	return out
}

// signIns parses the sign-in routines a spec carries.
func (s *Spec) signIns() (map[string]*routine.Routine, error) {
	out := make(map[string]*routine.Routine, len(s.SignIns))
	for name, b := range s.SignIns {
		r, err := routine.Parse(b.Routine)
		if err != nil {
			return nil, fmt.Errorf("the sign-in routine %s: %w", name, err)
		}
		out[name] = r
	}
	return out, nil
}

// Variables are what a row of the batch gives: the routine's variables,
// then those of its sign-in routines not named already. A name one routine
// declares secret and another plain is refused: a row would give it as a
// reference, and the routine that types it plain would have no value.
func (s *Spec) Variables() ([]routine.Variable, error) {
	r, err := routine.Parse(s.Routine)
	if err != nil {
		return nil, err
	}
	signIns, err := s.signIns()
	if err != nil {
		return nil, err
	}
	return variablesOf(r, signIns)
}

func variablesOf(r *routine.Routine, signIns map[string]*routine.Routine) ([]routine.Variable, error) {
	vars := slices.Clone(r.Variables)
	for _, name := range reloginsOf(r) {
		sr := signIns[name]
		if sr == nil {
			continue
		}
		for _, v := range sr.Variables {
			i := slices.IndexFunc(vars, func(w routine.Variable) bool { return w.Name == v.Name })
			switch {
			case i < 0:
				vars = append(vars, v)
			case vars[i].Secret != v.Secret:
				return nil, calls.Errorf(calls.ErrBadInput, "declare it secret in both routines (a row names a secret, never holds it)",
					"the variable %q is secret in one of the routine and its sign-in routine %s, and plain in the other", v.Name, name)
			}
		}
	}
	return vars, nil
}

// signIn replays a bundled sign-in routine in the row's own session, with
// the row's values: replay.SignIn, the way every runner signs in. Its
// submit is pressed on the submitter's word (approval.Relayed) and is not
// journaled (the session under the journaling one, whose errors are still
// noted): signing in again is no commit, and a row whose worker died after
// it is run again, not held as uncertain for a person.
func (w *worker) signIn(l *loaded, d calls.Session, o replay.Options) func(ctx context.Context, name string) error {
	return func(ctx context.Context, name string) error {
		sr := l.signIns[name]
		if sr == nil {
			return fmt.Errorf("the batch carries no sign-in routine %s (it was submitted without it)", name)
		}
		_, err := replay.SignIn(ctx, d, name, sr, approval.Relayed(sr, l.spec.SignIns[name].Approved),
			replay.Options{Vars: o.Vars, Secrets: o.Secrets, NoHand: o.NoHand})
		return err
	}
}
