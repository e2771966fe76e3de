package calls_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

// TestPopupOf: the popup a failed action met is read the same in the
// driver's process and on the far side of the daemon's socket, where an
// error travels as its code, message, hint and data.
func TestPopupOf(t *testing.T) {
	wire := func(err error) error {
		return calls.FromWire(calls.Code(err), err.Error(), calls.Hint(err), calls.DataOf(err))
	}
	covered := fmt.Errorf("click e3: %w", &calls.CoveredError{Target: "e3", By: `div#pop "Join"`, Text: "Join our newsletter", Buttons: []string{"No thanks"}})
	appeared, _ := json.Marshal(map[string]any{"kind": "box", "text": "Join our newsletter", "buttons": []string{"Subscribe", "No thanks"}})
	popup := &calls.Error{Kind: calls.ErrPopup, Msg: "a box appeared", Data: appeared}
	tests := []struct {
		name string
		err  error
		want *calls.Popup
	}{
		{"covered", covered, &calls.Popup{Kind: "covered", By: `div#pop "Join"`, Text: "Join our newsletter", Buttons: []string{"No thanks"}}},
		{"appeared", popup, &calls.Popup{Kind: "box", Text: "Join our newsletter", Buttons: []string{"Subscribe", "No thanks"}}},
		{"another error", calls.Errorf(calls.ErrNotInteractable, "", "e3 is disabled"), nil},
		{"none", nil, nil},
	}
	for _, tt := range tests {
		for _, far := range []bool{false, true} {
			err := tt.err
			if far && err != nil {
				err = wire(err)
			}
			got, ok := calls.PopupOf(err)
			if ok != (tt.want != nil) {
				t.Errorf("%s (over the wire %v): ok %v", tt.name, far, ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s (over the wire %v): (-want +got)\n%s", tt.name, far, diff)
			}
		}
	}
	if far := wire(covered); !errors.Is(far, calls.ErrNotInteractable) || far.Error() != covered.Error() {
		t.Errorf("a cover over the wire: %v", far)
	}
}
