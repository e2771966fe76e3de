package calls_test

import (
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
)

// Every error a call returns has a category a program can test with
// errors.Is, a code for the wire and a hint that says what to do.
func ExampleErrorf() {
	err := calls.Errorf(calls.ErrStaleRef, "take a new snapshot", "e12 is no longer on the page")
	fmt.Println(err)
	fmt.Println(errors.Is(err, calls.ErrStaleRef), calls.Code(err))
	var ce *calls.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.Hint)
	}
	// Output:
	// e12 is no longer on the page
	// true stale_ref
	// take a new snapshot
}
