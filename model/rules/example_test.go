package rules_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/model/rules"
)

func ExampleDecide() {
	outline := `- textbox "Email" [ref=e5]
- button "Sign in" [ref=e8]`
	a, err := rules.Decide("fill the Email field with %email%", outline)
	fmt.Println(a.Action, a.Ref, a.Value, err)
	_, err = rules.Decide("summarise the page", outline)
	fmt.Println(err)
	// Output:
	// fill e5 %email% <nil>
	// “summarise the page” needs a language model: set ANTHROPIC_API_KEY or OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)
}
