package openai_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/model/openai"
)

// A local server that speaks the Chat Completions API (here Ollama's
// address) needs no key, but it needs the name of a model it serves.
func ExampleNew() {
	_, err := openai.New(openai.Options{BaseURL: "http://localhost:11434/v1"})
	fmt.Println(err)
	if _, err := openai.New(openai.Options{BaseURL: "http://localhost:11434/v1", Model: "llama3.2"}); err == nil {
		fmt.Println("ready")
	}
	// Output:
	// openai: no model named for the server at http://localhost:11434/v1; pass the name of one it serves with --model or WAYMARK_MODEL
	// ready
}
