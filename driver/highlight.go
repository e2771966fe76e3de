package driver

import (
	"bytes"
	"context"
	"fmt"
	"image/png"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/waymark-dev/waymark/driver/internal/shot"
)

// highlightShot outlines the elements named by targets on a PNG just
// captured (clip as for maskShot). Like a mask it is drawn on the image,
// never on the page. A target that cannot be found (gone, a bad ref, no
// match) is left out: the picture is evidence of the page, and the
// outline only a pointer into it.
func (s *Session) highlightShot(ctx context.Context, t *tab, data []byte, clip *page.Viewport, targets []string) ([]byte, error) {
	var boxes []box
	for _, what := range targets {
		bs, err := s.maskBoxes(ctx, t, what)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		boxes = append(boxes, bs...)
	}
	if len(boxes) == 0 {
		return data, nil
	}
	metrics, err := call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("highlight: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("highlight: read the screenshot: %w", err)
	}
	rects := shot.ToImage(boxes, img.Bounds(), clip, metrics.CSSVisualViewport)
	if len(rects) == 0 {
		return data, nil
	}
	return shot.Outline(img, rects)
}
