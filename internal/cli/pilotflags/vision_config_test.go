package pilotflags

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/pilot"
)

// [model] pictures says a server of one's own reads pictures, and
// [model] vision takes only auto, always and never.
func TestModelPicturesAndVisionConfig(t *testing.T) {
	noEnv := func(string) string { return "" }
	for pics, want := range map[string]bool{"": false, "yes": true, "no": false} {
		cfg := config.Model{Provider: "openai", Model: "qwen2.5-vl", BaseURL: "http://127.0.0.1:11434/v1", Pictures: pics}
		m, _, err := NewModel(ModelFlags{}, cfg, noEnv, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := pilot.ReadsPictures(m, pilot.PurposeAct); got != want {
			t.Errorf("pictures = %q: reads pictures %v; want %v", pics, got, want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, config.ProjectFile), []byte("[model]\nvision = \"sometimes\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ve *config.ValueError
	if _, err := config.Load(config.LoadOptions{Dir: dir}); !errors.As(err, &ve) || ve.Key != "model.vision" {
		t.Errorf("vision = \"sometimes\": %v; want a value error on model.vision", err)
	}
}
