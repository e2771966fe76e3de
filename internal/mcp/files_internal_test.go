package mcp

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAWorkingFolderTooWide: an MCP client that starts the server in the
// root or the home folder does not make every file the user has "the
// working folder" (review of issue 27).
func TestAWorkingFolderTooWide(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder")
	}
	for dir, want := range map[string]bool{
		"/":                                true,
		home:                               true,
		filepath.Dir(home):                 true,
		filepath.Join(home, "src", "shop"): false,
		t.TempDir():                        false,
	} {
		if got := tooWide(dir); got != want {
			t.Errorf("tooWide(%s) = %v, want %v", dir, got, want)
		}
	}
}
