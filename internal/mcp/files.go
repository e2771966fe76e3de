package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/daemon/daemonpath"
)

// Files on the host. A client names a file for replay (a routine) and
// api_call (a recipe); the server reads it with the user's rights, so a
// client that could name any path could read any of the user's files, or
// learn what they hold from an error that quotes them (a routine's
// "unknown format ..."). These tools read only the server's working folder
// and the routines folder (daemonpath.RoutinesDir), with symbolic links
// resolved: ../, an absolute path elsewhere and a link that leads out are
// refused as bad input, and the refusal says nothing of the file.

// hostFile is the file name names (relative to the working folder), with
// its symbolic links resolved, when it lies in a folder the tools may
// read; tool names the tool for the refusal.
func hostFile(name, tool string) (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", calls.Errorf(calls.ErrBadInput, "give the JSON itself", "%s: the server has no working folder: %v", tool, err)
	}
	var folders []string
	if !tooWide(cwd) {
		folders = append(folders, cwd)
	}
	if d := daemonpath.RoutinesDir(os.Getenv); d != "" {
		folders = append(folders, d)
	}
	if len(folders) == 0 {
		return "", calls.Errorf(calls.ErrBadInput, "start the MCP server in a project folder, or give the JSON itself",
			"%s: the server's working folder (%s) holds the whole home or system, so it reads no file there", tool, cwd)
	}
	hint := fmt.Sprintf("give a file in %s, or the JSON itself", folders[0])
	if len(folders) > 1 {
		hint = fmt.Sprintf("give a file in the working folder (%s) or the routines folder (%s), or the JSON itself", cwd, folders[1])
	}
	reads := "the working folder and the routines folder"
	if len(folders) == 1 && folders[0] != cwd {
		// The working folder is left out: say so, or "outside the
		// working folder" puzzles a client whose file lies in it.
		reads = fmt.Sprintf("the routines folder (the working folder, %s, holds the whole home or system)", cwd)
	}
	refuse := func(why string) error {
		return calls.Errorf(calls.ErrBadInput, hint, "%s: %s %s; it reads only %s", tool, name, why, reads)
	}
	if strings.TrimSpace(name) == "" {
		return "", refuse("is no file name")
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, abs)
	}
	abs = filepath.Clean(abs)
	var real []string // the folders, their links resolved
	for _, f := range folders {
		if r, err := filepath.EvalSymlinks(f); err == nil {
			real = append(real, r)
		}
	}
	if !within(abs, folders) && !within(abs, real) {
		return "", refuse("is outside them")
	}
	file, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", refuse("cannot be read (no such file)")
	}
	if !within(file, real) {
		return "", refuse("leads outside them (a symbolic link)")
	}
	if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
		return "", refuse("is not a regular file")
	}
	return file, nil
}

// within says whether path lies in one of folders.
func within(path string, folders []string) bool {
	for _, f := range folders {
		rel, err := filepath.Rel(f, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// tooWide says a working folder is no project's: the root, the user's
// home or a folder above it. MCP clients often start servers there, and
// "the working folder" would then be every file the user has.
func tooWide(dir string) bool {
	dir = filepath.Clean(dir)
	if dir == filepath.Dir(dir) {
		return true // the root
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return false
	}
	home = filepath.Clean(home)
	if r, err := filepath.EvalSymlinks(home); err == nil {
		home = r
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	rel, err := filepath.Rel(dir, home)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."))
}
