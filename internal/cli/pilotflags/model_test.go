package pilotflags

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/pilot"
)

func TestNewModelChoosesProvider(t *testing.T) {
	t.Chdir(t.TempDir()) // no waymark.toml here
	env := func(kv map[string]string) func(string) string {
		return func(k string) string { return kv[k] }
	}
	cases := []struct {
		name  string
		flags ModelFlags
		env   map[string]string
		desc  string
	}{
		{"no key: rules", ModelFlags{}, nil, "rules"},
		{"anthropic key", ModelFlags{}, map[string]string{"ANTHROPIC_API_KEY": "k"}, "anthropic"},
		{"openai key", ModelFlags{}, map[string]string{"OPENAI_API_KEY": "k"}, "openai"},
		{"local server", ModelFlags{Model: "llama3", BaseURL: "http://127.0.0.1:11434/v1"}, nil, "http://127.0.0.1:11434/v1 llama3"},
		{"explicit rules", ModelFlags{Model: "rules"}, map[string]string{"ANTHROPIC_API_KEY": "k"}, "rules"},
	}
	for _, c := range cases {
		_, desc, err := newModelFromFiles(c.flags, env(c.env))
		if err != nil || !strings.HasPrefix(desc, c.desc) {
			t.Errorf("%s: %q, %v; want %q", c.name, desc, err, c.desc)
		}
	}
	if _, _, err := newModelFromFiles(ModelFlags{Model: "mystery-model"}, env(nil)); err == nil {
		t.Error("a bare model name with no key and no provider was accepted")
	}
}

// TestNewModelFromConfig: the [model] section picks the provider, the model
// and a cheaper model for one purpose.
func TestNewModelFromConfig(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	toml := "[model]\nprovider = \"openai\"\nmodel = \"big\"\nbase_url = \"http://127.0.0.1:1/v1\"\n[model.purposes]\nextract = \"small\"\n"
	if err := os.WriteFile(filepath.Join(dir, "waymark.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	m, desc, err := newModelFromFiles(ModelFlags{}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ms, ok := m.(pilot.Models)
	if !ok || ms.ByPurpose[pilot.PurposeExtract] == nil || ms.ByPurpose[pilot.PurposeAct] != nil {
		t.Fatalf("model %T %+v", m, m)
	}
	if !strings.Contains(desc, "big") || !strings.Contains(desc, "extract: http://127.0.0.1:1/v1 small") {
		t.Errorf("desc %q", desc)
	}
	// A flag beats the file.
	if _, desc, _ := newModelFromFiles(ModelFlags{Model: "rules"}, func(string) string { return "" }); !strings.HasPrefix(desc, "rules") {
		t.Errorf("--model rules over the file: %q", desc)
	}
	// Per-purpose models hold however the default's provider was chosen,
	// here by a bare model name.
	getenv := func(k string) string {
		if k == "ANTHROPIC_API_KEY" {
			return "sk-ant-test"
		}
		return ""
	}
	m, desc, err = newModelFromFiles(ModelFlags{Model: "claude-sonnet-4-5"}, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if ms, ok := m.(pilot.Models); !ok || ms.ByPurpose[pilot.PurposeExtract] == nil || !strings.Contains(desc, "extract: anthropic small") {
		t.Errorf("a bare model name dropped the per-purpose models: %s", desc)
	}
}

// newModelFromFiles is newModel with the [model] section read from the
// project file in the working directory and getenv.
func newModelFromFiles(f ModelFlags, getenv func(string) string) (pilot.Model, string, error) {
	wd, _ := os.Getwd()
	c := &cmdutil.Common{Config: func() (*config.Config, error) { return config.Load(config.LoadOptions{Getenv: getenv, Dir: wd}) }}
	return NewModel(f, c.ModelConfig(), getenv, nil)
}
