// Package scripted is a [pilot.Model] for tests: it answers from a script
// of steps, in order, and fails on any call the script did not expect,
// like cli/cli's httpmock registry.
//
//	m := scripted.New(
//		scripted.Data(pilot.PurposeAct, `{"action":"click","ref":"e5"}`),
//		scripted.Fail(pilot.PurposeExtract, pilot.ErrRateLimited),
//	)
//	defer m.Verify(t)
package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/pilot"
)

// ErrUnexpected is wrapped by the errors Next returns for calls the script
// did not expect.
var ErrUnexpected = errors.New("unexpected model call")

// Step is one expected call and its answer.
type Step struct {
	// Purpose, when set, is the purpose the call must have.
	Purpose pilot.Purpose
	// Check, when set, vets the incoming turn; an error fails the call.
	Check func(pilot.Turn) error
	// Hold, when set, makes the call wait until it is closed or the
	// context is done, to test cancellation of a call in flight.
	Hold  <-chan struct{}
	Reply pilot.Reply
	Err   error // returned instead of Reply when set
}

// Text is a step that answers a call for purpose with free text.
func Text(purpose pilot.Purpose, text string) Step {
	return Step{Purpose: purpose, Reply: pilot.Reply{Text: text, Model: "scripted"}}
}

// Data is a step that answers a call for purpose with a structured answer,
// given as JSON text.
func Data(purpose pilot.Purpose, data string) Step {
	return Step{Purpose: purpose, Reply: pilot.Reply{Data: json.RawMessage(data), Model: "scripted"}}
}

// Fail is a step that answers a call for purpose with err.
func Fail(purpose pilot.Purpose, err error) Step {
	return Step{Purpose: purpose, Err: err}
}

// Model answers from a script. It is safe for concurrent use, though a
// script only makes sense when calls come in a known order.
type Model struct {
	// Pictures makes the model say it reads pictures
	// (pilot.PictureReader); the zero value is text-only, as the rules
	// model is. Set it before the first call.
	Pictures bool

	// mu guards the fields below.
	mu       sync.Mutex
	steps    []Step
	next     int          // index of the next step
	calls    []pilot.Turn // every call, copied
	failures []error      // every call that went against the script
}

var _ pilot.Model = (*Model)(nil)

// ReadsPictures reports [Model.Pictures].
func (m *Model) ReadsPictures() bool { return m.Pictures }

// New returns a model that answers with steps, in order.
func New(steps ...Step) *Model { return &Model{steps: slices.Clone(steps)} }

// Next records the call and answers with the next step. A call beyond the
// script, a purpose other than the step's, or a failed Check is an error
// wrapping [ErrUnexpected], recorded for [Model.Verify]; the step is used
// up either way, so one surprise does not shift the rest of the script.
// A context already done, or done while the step holds, gives its error.
func (m *Model) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	m.mu.Lock()
	m.calls = append(m.calls, copyTurn(turn))
	n := len(m.calls)
	if m.next >= len(m.steps) {
		err := fmt.Errorf("scripted: call %d (purpose %q) is beyond the script of %d steps: %w", n, turn.Purpose, len(m.steps), ErrUnexpected)
		m.failures = append(m.failures, err)
		m.mu.Unlock()
		return pilot.Reply{}, err
	}
	st := m.steps[m.next]
	m.next++
	var err error
	switch {
	case st.Purpose != "" && st.Purpose != turn.Purpose:
		err = fmt.Errorf("scripted: call %d has purpose %q, the script expects %q: %w", n, turn.Purpose, st.Purpose, ErrUnexpected)
	case st.Check != nil:
		if cerr := st.Check(copyTurn(turn)); cerr != nil {
			err = fmt.Errorf("scripted: call %d (purpose %q) failed its check: %w: %w", n, turn.Purpose, cerr, ErrUnexpected)
		}
	}
	if err != nil {
		m.failures = append(m.failures, err)
	}
	m.mu.Unlock()
	if err != nil {
		return pilot.Reply{}, err
	}
	if st.Hold != nil {
		select {
		case <-st.Hold:
		case <-ctx.Done():
			return pilot.Reply{}, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return pilot.Reply{}, err
	}
	if st.Err != nil {
		return pilot.Reply{}, st.Err
	}
	r := st.Reply
	r.Data = slices.Clone(r.Data)
	return r, nil
}

// Calls returns copies of the turns the model received, oldest first.
func (m *Model) Calls() []pilot.Turn {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]pilot.Turn, len(m.calls))
	for i, t := range m.calls {
		out[i] = copyTurn(t)
	}
	return out
}

// Verify fails the test for each call that went against the script and
// for steps left unused.
func (m *Model) Verify(t testing.TB) {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, err := range m.failures {
		t.Error(err)
	}
	if left := m.steps[m.next:]; len(left) > 0 {
		purposes := make([]string, len(left))
		for i, s := range left {
			purposes[i] = string(s.Purpose)
			if purposes[i] == "" {
				purposes[i] = "any"
			}
		}
		t.Errorf("scripted: %d of %d steps unused (purposes %v)", len(left), len(m.steps), purposes)
	}
}

// copyTurn copies a turn deeply, so that callers reusing their slices
// cannot change what was recorded, and tests cannot change the caller's.
func copyTurn(t pilot.Turn) pilot.Turn {
	t.Schema = slices.Clone(t.Schema)
	t.Messages = slices.Clone(t.Messages)
	for i, m := range t.Messages {
		m.Images = slices.Clone(m.Images)
		for j, img := range m.Images {
			img.Data = slices.Clone(img.Data)
			m.Images[j] = img
		}
		t.Messages[i] = m
	}
	return t
}
