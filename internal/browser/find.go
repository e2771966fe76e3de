// Package browser finds a Chromium or Chrome executable, starts it with the
// flags that keep it quiet on a closed network, or attaches to a running
// browser's DevTools endpoint.
package browser

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrNotFound is returned by [Find] when no browser executable is found.
var ErrNotFound = errors.New("no Chromium or Chrome found")

// host is what discovery looks at: the system, its environment, its
// files and its PATH. The real one is the machine's; tests give fake file
// trees of other systems.
type host struct {
	goos     string
	getenv   func(string) string
	isFile   func(path string) bool
	lookPath func(name string) (string, error)
	glob     func(pattern string) []string
}

func realHost() host {
	return host{
		goos:   runtime.GOOS,
		getenv: os.Getenv,
		isFile: func(p string) bool {
			fi, err := os.Stat(p)
			return err == nil && !fi.IsDir()
		},
		lookPath: exec.LookPath,
		glob: func(pattern string) []string {
			m, _ := filepath.Glob(pattern)
			return m
		},
	}
}

// join joins path elements with the separator of h's system, whatever
// system this runs on.
func (h host) join(elem ...string) string {
	if h.goos == "windows" {
		return strings.Join(elem, `\`)
	}
	return strings.Join(elem, "/")
}

// candidates lists where browsers live on h's system, most likely first:
// Chromium, then Chrome, then Edge and Brave (Chromium too, with their
// own additions); names to look up on PATH, absolute paths, and the
// Chromium a Playwright install downloaded.
func (h host) candidates() []string {
	home := h.getenv("HOME")
	switch h.goos {
	case "darwin":
		apps := []string{
			"Chromium.app/Contents/MacOS/Chromium",
			"Google Chrome.app/Contents/MacOS/Google Chrome",
			"Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
			"Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
			"Brave Browser.app/Contents/MacOS/Brave Browser",
		}
		var out []string
		for _, dir := range []string{"/Applications", h.join(home, "Applications")} {
			if dir == "/Applications" || home != "" {
				for _, a := range apps {
					out = append(out, h.join(dir, a))
				}
			}
		}
		out = append(out, "chromium", "google-chrome")
		if home != "" {
			out = append(out, h.join(home, "Library/Caches/ms-playwright/chromium-*/chrome-mac/Chromium.app/Contents/MacOS/Chromium"))
		}
		return out
	case "windows":
		apps := []string{
			`Chromium\Application\chrome.exe`,
			`Google\Chrome\Application\chrome.exe`,
			`Microsoft\Edge\Application\msedge.exe`,
			`BraveSoftware\Brave-Browser\Application\brave.exe`,
		}
		var out []string
		for _, a := range apps {
			// Per machine (64- and 32-bit) and per user installs.
			for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LocalAppData"} {
				if dir := h.getenv(env); dir != "" {
					out = append(out, h.join(dir, a))
				}
			}
		}
		out = append(out, "chrome.exe", "msedge.exe")
		if dir := h.getenv("LocalAppData"); dir != "" {
			out = append(out, h.join(dir, `ms-playwright\chromium-*\chrome-win\chrome.exe`))
		}
		return out
	default:
		out := []string{
			"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
			"microsoft-edge", "microsoft-edge-stable", "brave-browser", "brave",
			"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
			"/snap/bin/chromium", "/opt/google/chrome/chrome",
			"/opt/microsoft/msedge/msedge", "/opt/brave.com/brave/brave",
		}
		if home != "" {
			out = append(out, h.join(home, ".cache/ms-playwright/chromium-*/chrome-linux/chrome"))
		}
		return out
	}
}

// NotFoundError names where [Find] looked.
type NotFoundError struct{ Looked []string }

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no Chromium, Chrome, Edge or Brave found (looked for %s); install one (on Debian: apt-get install chromium) or name it with --executable-path or WAYMARK_BROWSER",
		strings.Join(e.Looked, ", "))
}
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// Find returns the path of a browser executable. An explicit path (from a
// flag or WAYMARK_BROWSER, passed in by the caller) wins and must exist.
func Find(explicit string) (string, error) { return realHost().find(explicit) }

func (h host) find(explicit string) (string, error) {
	if explicit != "" {
		if p, err := h.lookPath(explicit); err == nil {
			return p, nil
		}
		return "", &NotFoundError{Looked: []string{explicit}}
	}
	looked := h.candidates()
	for _, c := range looked {
		switch {
		case strings.Contains(c, "*"):
			// Playwright's downloads, newest (highest revision) last.
			if m := h.glob(c); len(m) > 0 && h.isFile(m[len(m)-1]) {
				return m[len(m)-1], nil
			}
		case strings.ContainsAny(c, `/\`):
			if h.isFile(c) {
				return c, nil
			}
		default:
			if p, err := h.lookPath(c); err == nil && h.isFile(p) {
				return p, nil
			}
		}
	}
	return "", &NotFoundError{Looked: looked}
}
