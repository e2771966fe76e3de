package pilot_test

import (
	"context"
	"fmt"
	"log"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// A pilot over a browser session and the rules model, which needs no key:
// it carries out plain instructions on the page. The secret typed into
// the password field never reaches the model, the result or a log.
func ExamplePilot_Act() {
	ctx := context.Background()
	b, err := driver.Launch(ctx, driver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "example")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: "https://shop.example/login"}); err != nil {
		log.Fatal(err)
	}
	p := pilot.New(s, rules.New(), nil)
	vars := pilot.Vars{Secrets: map[string]secret.Value{"password": secret.New("password", "correct horse")}}
	res, err := p.Act(ctx, "fill the Password field with %password%", &pilot.ActOptions{Vars: vars})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Answer.Action, res.Line, res.Request.Value)
}

// Heal asks the model once which element of a changed page now serves a
// recorded step; the replay calls it when an element is gone. The page is
// shown to the model fenced, as data.
func ExamplePilot_Heal() {
	m := scripted.New(scripted.Data(pilot.PurposeHeal, `{"action":"click","ref":"e7","reason":"the button was renamed"}`))
	p := pilot.New(nil, m, nil) // Heal reads no page of its own
	h, err := p.Heal(context.Background(), pilot.HealRequest{
		Instruction: "place the order",
		Recorded:    calls.Fingerprint{Role: "button", Name: "Place order"},
		Page:        "- textbox \"Coupon\" [ref=e3]\n- button \"Complete purchase\" [ref=e7]",
	})
	fmt.Println(h.Ref, h.Reason, err)
	// Output:
	// e7 the button was renamed <nil>
}
