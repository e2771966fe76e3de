package scripted_test

import (
	"context"
	"fmt"

	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

// A scripted model answers each turn with the next scripted step, and
// refuses a turn whose purpose is not the one scripted: a test of a
// program that uses the pilot or replay needs no model service.
func ExampleNew() {
	m := scripted.New(scripted.Data(pilot.PurposeAct, `{"action":"click","ref":"e5"}`))
	r, err := m.Next(context.Background(), pilot.Turn{Purpose: pilot.PurposeAct})
	fmt.Println(string(r.Data), err)
	_, err = m.Next(context.Background(), pilot.Turn{Purpose: pilot.PurposeAct})
	fmt.Println(err != nil)
	// Output:
	// {"action":"click","ref":"e5"} <nil>
	// true
}
