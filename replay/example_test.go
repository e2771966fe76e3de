package replay_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/model/anthropic"
	"github.com/waymark-dev/waymark/policy"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// Replay a recorded routine in a browser that may go only to the shop,
// with a secret for its password variable and a model that heals an
// element the site moved (one call; nil means no model).
func ExampleRun() {
	ctx := context.Background()
	r, err := routine.Load("checkout.routine.json")
	if err != nil {
		log.Fatal(err)
	}
	pol, err := policy.New(policy.Options{Allow: []string{"shop.example"}})
	if err != nil {
		log.Fatal(err)
	}
	b, err := driver.Launch(ctx, driver.Options{Policy: pol})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "replay")
	if err != nil {
		log.Fatal(err)
	}
	m, err := anthropic.New(anthropic.Options{APIKey: os.Getenv("ANTHROPIC_API_KEY")})
	if err != nil {
		log.Fatal(err)
	}
	res, err := replay.Run(ctx, s, r, replay.Options{
		Vars:    map[string]string{"email": "ann@example.com"},
		Secrets: map[string]secret.Value{"password": secret.New("password", os.Getenv("SHOP_PASSWORD"))},
		Model:   m,
	})
	if err != nil {
		log.Fatal(err)
	}
	if res.Status != replay.StatusOK {
		fmt.Printf("stopped (%s): %s\nhint: %s\n", res.Cause, res.Message, res.Hint)
		return
	}
	fmt.Printf("replayed %d steps, %d model calls, %d heals\n", len(res.Steps), res.ModelCalls, len(res.Heals))
}

// Every cause a replay stops for comes with a hint that says what to do.
func ExampleCause_Hint() {
	fmt.Println(replay.CauseNeedsApproval.Hint())
	// Output:
	// the step would send, pay, delete or confirm: check it, then replay with --allow-submit
}
