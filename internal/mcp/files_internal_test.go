package mcp

import (
	"os"
	"path/filepath"
	"strings"
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

// TestARefusalNamesTheFoldersItReads: with a working folder too wide to
// read (Claude Desktop starts its servers in /), a refused file is not
// said to be outside "the working folder and the routines folder": only
// the routines folder is read, and the message says why.
func TestARefusalNamesTheFoldersItReads(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Chdir(home)
	_, err := hostFile("order.json", "replay")
	if err == nil {
		t.Fatal("no refusal")
	}
	msg := err.Error()
	if strings.Contains(msg, "the working folder and the routines folder") || !strings.Contains(msg, "it reads only the routines folder (the working folder, "+home+", holds the whole home or system)") {
		t.Errorf("refusal %q", msg)
	}
}
