package rules

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// TestInferredNames: a name the outline infers (~"…") is matched like the
// page's own, but an own name that matches as well comes first.
func TestInferredNames(t *testing.T) {
	for _, tt := range []struct {
		instruction string
		ref, value  string
		err         error
	}{
		{"fill Username with ann", "e7", "ann", nil},
		{"type hunter2 into the Password field", "e8", "hunter2", nil},
		{"fill Birthday with 06/24/2012", "e13", "06/24/2012", nil},
		{"click star", "e22", "", nil},
		{"click Close", "e20", "", nil}, // the page's own name over the icon's
		{"click Apricot", "e31", "", nil},
		{"click Ap", "", "", ErrAmbiguous},
	} {
		t.Run(tt.instruction, func(t *testing.T) {
			r, err := New().Next(context.Background(), actTurn(tt.instruction, fixture(t, "inferred")))
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got Answer
			if err := json.Unmarshal(r.Data, &got); err != nil {
				t.Fatal(err)
			}
			if got.Ref != tt.ref || got.Value != tt.value {
				t.Errorf("got ref %q value %q, want %q %q (%s)", got.Ref, got.Value, tt.ref, tt.value, got.Reason)
			}
		})
	}
}
