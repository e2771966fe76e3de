package driver

import (
	"context"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// PageTargets lists the browser's page targets, in any browser context.
func PageTargets(ctx context.Context, b *Browser) ([]*target.Info, error) {
	infos, err := chromedp.Targets(b.ctx)
	if err != nil {
		return nil, err
	}
	var pages []*target.Info
	for _, in := range infos {
		if in.Type == "page" {
			pages = append(pages, in)
		}
	}
	return pages, nil
}
