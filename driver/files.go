package driver

import (
	"strings"

	"github.com/chromedp/cdproto/cdp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/policy"
)

// Local files ([policy.Options.Files]): the policy says whether file:
// URLs may be opened at all; the guard (guard.go) adds who may open one.
// A file: document loads only when waymark sent the tab to it (open, back,
// forward) or the tab already shows a local file (a file's link, frame or
// reload). A page from the web never loads a local file, in its tab or a
// frame, by a link, a script or a redirect, whatever the setting: Chromium
// refuses those itself, and this keeps it so should it ever not.

// askFile notes the URL waymark is about to send the tab to: a local
// file's is the one file: document the guard lets through from a page of
// the web. Any other URL forgets it.
func (t *tab) askFile(u string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.askedFile = ""
	if strings.HasPrefix(strings.ToLower(u), "file:") {
		t.askedFile = u
	}
}

// fileFrom judges a file: document request the policy allowed, in the
// tab's main frame or another (frame): nil when the tab shows a local file, or when
// it is the main frame's load of the file waymark sent it to (once: the
// page that file links to cannot come back to it by the same leave), else
// a refusal.
func (t *tab) fileFrom(u string, frame cdp.FrameID) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	mainFrame := frame == "" || frame == t.frameID
	if strings.HasPrefix(strings.ToLower(t.docURL), "file:") {
		return nil
	}
	if mainFrame && u == t.askedFile {
		t.askedFile = ""
		return nil
	}
	return &policy.BlockedError{URL: u, Reason: policy.ReasonFileFromWeb}
}

// filesHint says how to open a local file the policy refused: the
// setting, or serving its folder over http.
var filesHint = "allow local files with files = true in [policy] of waymark.toml (or pass --allow-files), then " + calls.Cmd("daemon restart") +
	"; or serve the folder over http: python3 -m http.server --directory DIR 8000, then open http://localhost:8000/FILE"
