package driver

import (
	"context"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/driver/internal/appmark"
)

// detectApp returns the application the tab shows, or nil, from the
// session's table (the configuration's [[apps]], then the built-in ones);
// telling them apart is the room's (internal/appmark).
func (s *Session) detectApp(ctx context.Context, t *tab) *apps.App {
	return appmark.Detect(ctx, t, apps.With(s.browser.opts.Apps))
}

// canvasGrid describes the canvas grid the tab shows, or "".
func (s *Session) canvasGrid(ctx context.Context, t *tab) string { return appmark.CanvasGrid(ctx, t) }
