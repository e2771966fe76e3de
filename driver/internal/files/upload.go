package files

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// uploadRoots returns the folders uploads may come from, absolute and with
// symlinks resolved. Empty means the current user's home and the system
// temp folder (Options.UploadRoots).
func uploadRoots(roots []string) []string {
	if len(roots) == 0 {
		roots = []string{os.TempDir()}
		if home, err := os.UserHomeDir(); err == nil {
			roots = append(roots, home)
		}
	}
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		if r == "" {
			continue
		}
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		out = append(out, abs)
	}
	return out
}

// CheckUploadRoot resolves the symlinks of abs (an existing file's absolute
// path) and returns the real path if it lies inside one of the roots; a
// link inside a root that points outside it is refused.
func CheckUploadRoot(abs, given string, roots []string) (string, error) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", calls.Errorf(calls.ErrBadInput, "check the path", "cannot upload %s: %v", given, err)
	}
	allowed := uploadRoots(roots)
	for _, r := range allowed {
		if within(real, r) {
			return real, nil
		}
	}
	return "", calls.Errorf(calls.ErrBadInput,
		"copy the file into one of "+strings.Join(allowed, ", ")+" and upload it from there",
		"cannot upload %s: it is outside the folders uploads may come from", given)
}

// within reports whether p is root or inside it; both are clean and absolute.
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Uploads are the rules a file to upload passes: what a relative path
// means, and the folders a file may come from.
type Uploads struct {
	// Roots are the folders uploads may come from; empty means the
	// defaults (uploadRoots).
	Roots []string
	// NoFolder says this process's working folder is no caller's
	// (driver.Options.RemoteCallers): a relative path that comes without
	// the caller's folder is refused, never read from this one.
	NoFolder bool
}

// Resolve makes path whole. This is the one place a relative path gets a
// meaning: against dir, the folder of whoever gave it (the CLI's working
// folder, a routine file's folder), when dir is given; else against this
// process's working folder, unless that is no caller's (NoFolder), when
// it is refused with what to do instead. A daemon reading cv.pdf from the
// folder it happened to start in would upload another file of the same
// name, or say "no such file" of a folder the user never chose.
func (u Uploads) Resolve(path, dir string) (string, error) {
	switch {
	case filepath.IsAbs(path):
		return filepath.Clean(path), nil
	case dir != "":
		if !filepath.IsAbs(dir) {
			return "", calls.Errorf(calls.ErrBadInput, "give the folder relative paths are read from as a whole path",
				"cannot upload %s: the folder it is relative to, %s, is not a whole path", path, dir)
		}
		return filepath.Join(dir, path), nil
	case u.NoFolder:
		return "", calls.Errorf(calls.ErrBadInput, "give the whole path, e.g. "+wholeExample(path),
			"cannot upload %s: the path is relative, and the browser that reads it (the waymark daemon's, or a batch worker's) has no folder of yours to read it from", path)
	}
	return filepath.Abs(path)
}

// wholeExample is path made whole in the user's home folder, as an
// example of the form a whole path takes: never in this process's own
// folder, which a reader would take for the one the file is looked for
// in.
func wholeExample(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		home = filepath.FromSlash("/home/you")
	}
	return filepath.Join(home, path)
}

// Check returns the files' real paths, each made whole by Resolve
// against dir and refused outside the upload roots.
func (u Uploads) Check(files []string, dir string) ([]string, error) {
	if len(files) == 0 {
		// The CLI's usage line is no help to the fronts this reaches (the
		// CLI asks for a file itself): each has its own way to name one.
		return nil, calls.Errorf(calls.ErrBadInput, "give one file or more to set on the file input", "upload needs at least one file")
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		abs, err := u.Resolve(f, dir)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "check the path", "cannot upload %s: no such file", shownPath(f, abs))
		}
		if fi.IsDir() {
			return nil, calls.Errorf(calls.ErrBadInput, "name a file, not a folder", "cannot upload %s: it is a folder", shownPath(f, abs))
		}
		real, err := CheckUploadRoot(abs, f, u.Roots)
		if err != nil {
			return nil, err
		}
		out = append(out, real)
	}
	return out, nil
}

// shownPath is a path as an error names it: as given, and where it was
// looked for when that differs, so "no such file" says which folder.
func shownPath(given, abs string) string {
	if given == abs {
		return given
	}
	return given + " (" + abs + ")"
}
