package driver

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// highlightWidth is the width, in image pixels, of the outline drawn
// around a highlighted element.
const highlightWidth = 3

// highlightColor is the outline's colour: a red that pages seldom use.
var highlightColor = color.RGBA{R: 0xff, G: 0x1f, B: 0x4b, A: 0xff}

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
	rects := toImage(boxes, img.Bounds(), clip, metrics.CSSVisualViewport)
	if len(rects) == 0 {
		return data, nil
	}
	return outlineRects(img, rects)
}

// outlineRects draws a frame around each rectangle, inside it, in a copy
// of img, and encodes it as PNG.
func outlineRects(img image.Image, rects []image.Rectangle) ([]byte, error) {
	b := img.Bounds()
	dst := image.NewRGBA(b)
	draw.Draw(dst, b, img, b.Min, draw.Src)
	pen := image.NewUniform(highlightColor)
	for _, r := range rects {
		w := min(highlightWidth, r.Dx()/2, r.Dy()/2)
		if w < 1 {
			w = 1
		}
		for _, edge := range []image.Rectangle{
			{r.Min, image.Pt(r.Max.X, r.Min.Y+w)},
			{image.Pt(r.Min.X, r.Max.Y-w), r.Max},
			{r.Min, image.Pt(r.Min.X+w, r.Max.Y)},
			{image.Pt(r.Max.X-w, r.Min.Y), r.Max},
		} {
			draw.Draw(dst, edge.Intersect(b), pen, image.Point{}, draw.Src)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, dst); err != nil {
		return nil, fmt.Errorf("highlight: write the screenshot: %w", err)
	}
	return buf.Bytes(), nil
}
