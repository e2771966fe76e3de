package rules_test

import (
	"context"
	"fmt"

	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
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

// The rules model is a pilot.Model that needs no key and no network: a
// program hands it to pilot.New or replay.Options.Model like any other.
func ExampleNew() {
	var m pilot.Model = rules.New()
	reply, err := m.Next(context.Background(), pilot.Turn{
		Purpose: pilot.PurposeAct,
		Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "Instruction: click Sign in\n\n<page_content>\n" +
			"- textbox \"Email\" [ref=e5]\n- button \"Sign in\" [ref=e8]\n</page_content>"}},
	})
	fmt.Println(string(reply.Data), err)
	// Output:
	// {"action":"click","ref":"e8","reason":"button \"Sign in\" [ref=e8] matches \"Sign in\" by exact name"} <nil>
}
