package daemonpath

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

type dirInfo struct{ fs.FileInfo }

func (dirInfo) IsDir() bool        { return true }
func (dirInfo) Name() string       { return "1000" }
func (dirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o700 }
func (dirInfo) ModTime() time.Time { return time.Time{} }

// An MCP client that starts `waymark mcp` with no XDG_RUNTIME_DIR reached
// another daemon than the shell's (~/.cache/waymark/run against
// /run/user/UID/waymark). Every process now finds the same folder.
func TestRuntimeDirIsTheSameWithOrWithoutTheEnvironment(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	systemd := func(name string) (os.FileInfo, error) {
		if name == "/run/user/1000" {
			return dirInfo{}, nil
		}
		return nil, os.ErrNotExist
	}
	none := func(string) (os.FileInfo, error) { return nil, os.ErrNotExist }

	shell := RuntimeDir(env(map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}), 1000, systemd)
	minimal := RuntimeDir(env(nil), 1000, systemd)
	if shell != "/run/user/1000/waymark" || minimal != shell {
		t.Errorf("shell %s, minimal environment %s: want both /run/user/1000/waymark", shell, minimal)
	}
	// No systemd folder and no XDG_RUNTIME_DIR anywhere: one folder per
	// user in the temporary folder, whatever HOME is.
	if got, want := RuntimeDir(env(map[string]string{"HOME": "/elsewhere"}), 1000, none), filepath.Join(os.TempDir(), "waymark-1000"); got != want {
		t.Errorf("no runtime dir: %s, want %s", got, want)
	}
	// A relative XDG_RUNTIME_DIR is not used (the spec says absolute).
	if got := RuntimeDir(env(map[string]string{"XDG_RUNTIME_DIR": "rel"}), 1000, systemd); got != "/run/user/1000/waymark" {
		t.Errorf("relative XDG_RUNTIME_DIR: %s", got)
	}
}

// With no HOME (no cache dir) the paths are still found: the log goes
// beside the socket.
func TestDefaultPathsWithoutHome(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/test")
	p, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if p.Socket != "/run/user/test/waymark/daemon.sock" || p.Log != "/run/user/test/waymark/daemon.log" {
		t.Errorf("paths %+v", p)
	}
}
