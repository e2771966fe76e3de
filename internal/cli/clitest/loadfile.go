package clitest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark-dev/waymark/internal/config"
)

// loadFile returns a Deps.Config that reads file as the project's config
// file, with the environment env.
func LoadFile(t *testing.T, file string, env map[string]string) func([]config.Flag) (*config.Config, error) {
	t.Helper()
	dir := t.TempDir()
	if file != "" {
		if err := os.WriteFile(filepath.Join(dir, config.ProjectFile), []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return func(flags []config.Flag) (*config.Config, error) {
		return config.Load(config.LoadOptions{Dir: dir, Getenv: func(k string) string { return env[k] }, Flags: flags})
	}
}
