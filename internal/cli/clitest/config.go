package clitest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark-dev/waymark/internal/config"
)

// testConfig loads a config from a project file in a temporary folder
// (mode 0600) and the given environment.
func LoadConfig(t *testing.T, file string, env map[string]string) (*config.Config, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, config.ProjectFile)
	if file != "" {
		if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := config.Load(config.LoadOptions{Dir: dir, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return c, path
}
