package build

import (
	"fmt"

	"github.com/chromedp/cdproto/cdp"
)

// testRef gives refs that stay the same between recordings of a page.
func testRef(_ cdp.FrameID, id cdp.BackendNodeID) string { return fmt.Sprintf("e%d", id) }
