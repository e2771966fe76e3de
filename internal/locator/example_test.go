package locator_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/internal/locator"
)

func ExampleParse() {
	l, err := locator.Parse(`role=button[name='Pay  NOW']`)
	if err != nil {
		panic(err)
	}
	fmt.Println(l)
	fmt.Println(l.Match(locator.Candidate{Role: "button", Name: "Pay now"}))
	fmt.Println(l.Match(locator.Candidate{Role: "button", Name: "Pay now or later"}))

	_, err = locator.Parse("Pay now")
	fmt.Println(err)
	// Output:
	// role=button[name="Pay  NOW"]
	// true
	// false
	// bad locator: "Pay now" is not a locator; did you mean text="Pay now"? locators are @e12 (a ref from the outline), role=button, role=button[name="Pay now"], text=Continue, text="Continue" (exact), label=Email, placeholder=Search, testid=submit, css=#go
}
