package driver

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// dropFirstTab closes the blank tab that a headless Chromium waymark
// started opens with, and returns the channel that closes when the browser
// is gone: with that tab closed, the end of the connection to the browser
// (its detachment no longer says anything).
//
// No session uses that tab (each session is a browser context with tabs of
// its own), yet it holds a window (about 13 MB between the browser and GPU
// processes: headless Chromium keeps a software surface of the window's
// size) and a renderer (about 15 MB). Headless Chromium runs on with no
// window; a headed one quits when its last window closes, and an attached
// browser's tabs are the user's, so both keep theirs.
func (b *Browser) dropFirstTab(ctx context.Context) (<-chan struct{}, error) {
	c := chromedp.FromContext(b.ctx)
	if _, err := cdp.Call(ctx, c.Browser, target.CloseTarget, target.CloseTargetParams{TargetID: c.Target.TargetID}); err != nil {
		return nil, browserErr(err)
	}
	return c.Browser.LostConnection, nil
}
