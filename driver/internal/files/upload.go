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

// CheckUploads returns the files' real paths, refusing any outside the
// upload roots (upload.go).
func CheckUploads(files, roots []string) ([]string, error) {
	if len(files) == 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "usage: waymark upload TARGET FILE...", "upload needs at least one file")
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "check the path", "cannot upload %s: no such file", f)
		}
		if fi.IsDir() {
			return nil, calls.Errorf(calls.ErrBadInput, "name a file, not a folder", "cannot upload %s: it is a folder", f)
		}
		real, err := CheckUploadRoot(abs, f, roots)
		if err != nil {
			return nil, err
		}
		out = append(out, real)
	}
	return out, nil
}
