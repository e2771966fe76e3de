// Package clipboard copies a page's selection as a hand does and reads
// what the app put on the clipboard.
//
// The clipboard, as a hand uses it: the selection is copied with the
// app's own Control+C, and what the app put on the clipboard is read in
// our isolated world (navigator.clipboard, with the permission granted to
// the page's origin for the session's browser context only). Before the
// copy a marker of ours is written, so a copy the app refused (a page
// that blocks copying) is told from one that copied, and the clipboard's
// prior text and HTML are put back afterwards. Only text and HTML are
// kept: an image on the clipboard before is lost (the async clipboard API
// writes back only what it read, and we read only those two).
//
// One browser has one clipboard, which its sessions share: copies are
// serialized across the process (clipboardMu), and after each the
// permission goes back to "prompt" (refused with no person), so neither
// this page nor another session's can read what was copied or what others
// copy later.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. The permission is granted in the session's
// browser context by the core (a [Grant] it hands over), which also
// decides which sheet or document call copies.
package clipboard

import (
	"context"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Tab is the view of a tab the room needs (driver's tab, surface.go).
type Tab interface {
	// Target is the tab's own CDP session: keys go to it.
	Target() *chromedp.Target
	// Doc returns the tab's main frame and its document's URL.
	Doc() (frame cdp.FrameID, url string)
	// EvalWorld evaluates expr in waymark's isolated world of frame and
	// decodes the result into out.
	EvalWorld(ctx context.Context, frame cdp.FrameID, expr string, out any) error
}

// Grant sets whether the page's origin may read and write the clipboard,
// in the session's browser context only: granted for a copy, back to
// prompt after (the core's: the browser context is the session's).
type Grant func(ctx context.Context, setting browser.PermissionSetting) error
