package openai_test

import (
	"testing"

	"github.com/waymark-dev/waymark/model"
	"github.com/waymark-dev/waymark/model/openai"
)

// OpenAI's own API reads pictures but for its text-only models; a server
// of one's own is text-only until the options say it reads them.
func TestReadsPictures(t *testing.T) {
	for _, c := range []struct {
		name string
		opts model.Options
		want bool
	}{
		{"OpenAI's API, its default model", model.Options{APIKey: "sk-x"}, true},
		{"OpenAI's API, a text-only model", model.Options{APIKey: "sk-x", Model: "gpt-3.5-turbo"}, false},
		{"a local server", model.Options{BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3"}, false},
		{"a local server that reads them", model.Options{BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5-vl", Pictures: model.PicturesRead}, true},
		{"OpenAI's API, told text-only", model.Options{APIKey: "sk-x", Pictures: model.PicturesTextOnly}, false},
	} {
		m, err := openai.New(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.ReadsPictures(); got != c.want {
			t.Errorf("%s: ReadsPictures = %v; want %v", c.name, got, c.want)
		}
	}
}
