package pilot_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

// A schema naming a type JSON Schema does not know is refused as the
// user's mistake before any model call, on every way of reading.
func TestABadSchemaCostsNoModelCall(t *testing.T) {
	bad := json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"price":{"type":"nonsense"}}}}`)
	for name, do := range map[string]func(p *pilot.Pilot) error{
		"extract": func(p *pilot.Pilot) error {
			_, err := p.Extract(context.Background(), "the prices", bad)
			return err
		},
		"pages": func(p *pilot.Pilot) error {
			_, err := p.ExtractWith(context.Background(), "the prices", bad, pilot.ExtractOptions{List: pilot.ListOptions{Pages: 3}})
			return err
		},
		"learn": func(p *pilot.Pilot) error {
			_, err := p.ExtractWith(context.Background(), "the prices", bad, pilot.ExtractOptions{Learn: true})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			m := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"price":1}]`))
			p := pilot.New(&fakeDriver{outline: signIn}, m, nil)
			err := do(p)
			if !errors.Is(err, calls.ErrBadInput) {
				t.Fatalf("err = %v, want bad_input", err)
			}
			if n := len(m.Calls()); n != 0 {
				t.Fatalf("%d model calls for a schema that cannot be met", n)
			}
		})
	}
}
