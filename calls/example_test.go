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

// A person asked to approve a step reads it one way, whatever front asks:
// the step, the page, why it needs them ("it" and the Why's phrase), and
// what it sends.
func ExampleApproval_Describe() {
	a := calls.Approval{Action: "press Enter", Control: "input[type=email]", URL: "https://shop.example/login",
		Why: "Enter in a form field submits the form", Target: "POST https://shop.example/session",
		Form: map[string]string{"email": "ann@example.com", "password": "••••"}}
	fmt.Println(a.Describe())
	// Output:
	// press Enter input[type=email] on https://shop.example/login: it submits the form.
	// The form goes to POST https://shop.example/session.
	// The form:
	//   email: ann@example.com
	//   password: ••••
}
