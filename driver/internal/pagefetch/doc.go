// Package pagefetch makes an HTTP request with fetch() from waymark's
// isolated world of a tab (calls.MethodFetch): the browser's own request,
// on the page's origin, with its cookies, over its connections. It reads
// the script's answer into a calls.FetchResult or a coded error, and, for
// a call that asks for redirects, the Location of a 3xx answer from the
// tab's network events (a script cannot read it).
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. Whether a URL may be fetched (the URL policy, the
// daemon's proxy pinning its addresses) is checked by the core before Do
// runs (driver/fetch.go), and the URL a result shows is the core's too.
package pagefetch

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
)

// Tab is the view of a tab the room needs (driver's tab, surface.go).
type Tab interface {
	// Context is the tab's own context: a listener on it lasts as long
	// as the tab, and is stopped sooner by the room.
	Context() context.Context
	// Doc returns the tab's main frame and its document's URL.
	Doc() (frame cdp.FrameID, url string)
	// EvalWorld evaluates expr in waymark's isolated world of frame and
	// decodes the result into out.
	EvalWorld(ctx context.Context, frame cdp.FrameID, expr string, out any) error
}
