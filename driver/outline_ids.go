package driver

import (
	"github.com/chromedp/cdproto/cdp"

	"github.com/waymark-dev/waymark/internal/outline"
)

// backendOf and frameOf are an outline node's DevTools ids, which the
// outline holds as plain values to stay free of DevTools types.
func backendOf(n *outline.Node) cdp.BackendNodeID { return cdp.BackendNodeID(n.BackendID) }

func frameOf(n *outline.Node) cdp.FrameID { return cdp.FrameID(n.Frame) }
