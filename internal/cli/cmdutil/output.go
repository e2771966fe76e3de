package cmdutil

import (
	"errors"
	"path/filepath"
	"strings"
)

const TargetHelp = `TARGET is a ref from "waymark snapshot" (@e12 or e12) or a locator:
role=button[name="Pay"], text=Continue, label=Email, placeholder=Search,
testid=submit, css=#go.`

// WithNewline ends s with exactly one newline (none when s is empty).
func WithNewline(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return s + "\n"
}

// WriteCapture writes data to path (replacing a file there) and returns the
// absolute path.
func WriteCapture(path string, data []byte) (string, error) {
	if len(data) == 0 {
		return "", errors.New("the daemon sent an empty capture")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	// Replaced, not written in place: a file that was there would keep
	// its mode (0644) through WriteFile.
	if err := WriteFileAtomic(abs, data, CaptureMode); err != nil {
		return "", err
	}
	return abs, nil
}

// CaptureMode is the mode of a screenshot or PDF waymark writes: the
// owner's alone, like the rest of its state, as a page may show secrets.
const CaptureMode = 0o600
