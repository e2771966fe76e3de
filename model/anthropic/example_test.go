package anthropic_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/model/anthropic"
	"github.com/waymark-dev/waymark/pilot"
)

// New starts nothing and sends nothing. The key is the caller's to pass
// (the package never reads the environment); without one, New says what
// to set.
func ExampleNew() {
	_, err := anthropic.New(anthropic.Options{})
	fmt.Println(err)

	m, err := anthropic.New(anthropic.Options{APIKey: "sk-ant-example", Model: anthropic.DefaultModel})
	if err != nil {
		fmt.Println(err)
		return
	}
	var _ pilot.Model = m // what pilot.New and replay.Options.Model take
	fmt.Println("ready")
	// Output:
	// anthropic: no API key; set ANTHROPIC_API_KEY
	// ready
}
