package anthropic_test

import (
	"testing"

	"github.com/waymark-dev/waymark/model"
	"github.com/waymark-dev/waymark/model/anthropic"
)

// Claude reads pictures unless the options say the model is text-only.
func TestReadsPictures(t *testing.T) {
	for pics, want := range map[model.Pictures]bool{model.PicturesDefault: true, model.PicturesRead: true, model.PicturesTextOnly: false} {
		m, err := anthropic.New(model.Options{APIKey: "sk-ant-x", Pictures: pics})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.ReadsPictures(); got != want {
			t.Errorf("Pictures %d: ReadsPictures = %v; want %v", pics, got, want)
		}
	}
}
