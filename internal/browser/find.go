// Package browser finds a Chromium or Chrome executable, starts it with the
// flags that keep it quiet on a closed network, or attaches to a running
// browser's DevTools endpoint.
package browser

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// ErrNotFound is returned by [Find] when no browser executable is found.
var ErrNotFound = errors.New("no Chromium or Chrome found")

// candidates lists where browsers usually live, most likely first.
func candidates() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
			"chromium", "google-chrome",
		}
	default:
		return []string{
			"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
			"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
			"/snap/bin/chromium", "/opt/google/chrome/chrome",
		}
	}
}

// NotFoundError names where [Find] looked.
type NotFoundError struct{ Looked []string }

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no Chromium or Chrome found (looked for %s); install one (on Debian: apt-get install chromium) or name it with --executable-path or WAYMARK_BROWSER",
		strings.Join(e.Looked, ", "))
}
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// Find returns the path of a browser executable. An explicit path (from a
// flag or WAYMARK_BROWSER, passed in by the caller) wins and must exist.
func Find(explicit string) (string, error) {
	if explicit != "" {
		if p, err := exec.LookPath(explicit); err == nil {
			return p, nil
		}
		return "", &NotFoundError{Looked: []string{explicit}}
	}
	looked := candidates()
	for _, c := range looked {
		if p, err := exec.LookPath(c); err == nil {
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			}
		}
	}
	return "", &NotFoundError{Looked: looked}
}
