package replay

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/routine"
)

// TestMissingVariableNamesTheGivenOnesItLacks: a value given under a name
// the routine has no variable of (a typo, --var emial=…) is named beside
// the variable it leaves without a value, with the routine's variables;
// before, the error said only that email had no value, as if none was given.
func TestMissingVariableNamesTheGivenOnesItLacks(t *testing.T) {
	r := &routine.Routine{Variables: []routine.Variable{{Name: "full_name"}, {Name: "email"}}}
	_, err := newRun(nil, r, Options{Vars: map[string]string{"full_name": "Ann", "emial": "ann@example.com"}})
	if err == nil {
		t.Fatal("a routine run with no value for email was accepted")
	}
	for _, want := range []string{`no value for the variable "email"`, "emial", "full_name, email"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	// Nothing extra given: the error stays as it was.
	_, err = newRun(nil, r, Options{Vars: map[string]string{"full_name": "Ann"}})
	if err == nil || strings.Contains(err.Error(), "names no variable") {
		t.Errorf("error with no stray value = %v", err)
	}
}

// TestSiteDownSaysItOnce: a goto whose page does not load stops with the
// driver's words, which name the URL already; the replay said "could not
// open URL: could not open URL: …".
func TestSiteDownSaysItOnce(t *testing.T) {
	d := shop()
	delete(d.pages, "http://shop.test/checkout")
	res, err := Run(context.Background(), d, checkoutRoutine(t), opts())
	if err != nil {
		t.Fatal(err)
	}
	if res.Cause != CauseLandedAway || strings.Count(res.Message, "could not open") != 1 || !strings.Contains(res.Message, "http://shop.test/checkout: net::ERR_CONNECTION_REFUSED") {
		t.Errorf("stopped %s: %q", res.Cause, res.Message)
	}
}
