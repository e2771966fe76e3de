package shot

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"github.com/chromedp/cdproto/page"
)

// maskPad is how far, in CSS pixels, a mask reaches beyond the element's
// border box: a focus ring or a rounding of the box must not show an edge
// of the text.
const maskPad = 2

// Box is a rectangle in CSS pixels of the tab's viewport.
type Box struct{ X0, Y0, X1, Y1 float64 }

// ToImage turns viewport boxes into padded pixel rectangles of an image
// of bounds b, dropping those outside it. For a clipped capture (the full
// page, an element) the image shows the clip, in page coordinates, at
// image width / clip width pixels per CSS pixel. A viewport capture shows
// the visual viewport; its pixels per CSS pixel are the smaller ratio of
// the two sides, since a scrollbar (when not hidden) is in the image but
// not in the viewport's client size.
func ToImage(boxes []Box, b image.Rectangle, clip *page.Viewport, vv *page.VisualViewport) []image.Rectangle {
	var sx, sy, ox, oy float64 // image pixel = (viewport CSS pixel + o) * s
	switch {
	case clip != nil && clip.Width > 0 && clip.Height > 0:
		sx, sy = float64(b.Dx())/clip.Width, float64(b.Dy())/clip.Height
		ox, oy = -clip.X, -clip.Y
		if vv != nil {
			ox, oy = ox+vv.PageX, oy+vv.PageY
		}
	case vv != nil && vv.ClientWidth > 0 && vv.ClientHeight > 0:
		sx = min(float64(b.Dx())/vv.ClientWidth, float64(b.Dy())/vv.ClientHeight)
		sy = sx
	default:
		sx, sy = 1, 1
	}
	var out []image.Rectangle
	for _, bx := range boxes {
		r := image.Rect(
			int(math.Floor((bx.X0+ox-maskPad)*sx)), int(math.Floor((bx.Y0+oy-maskPad)*sy)),
			int(math.Ceil((bx.X1+ox+maskPad)*sx)), int(math.Ceil((bx.Y1+oy+maskPad)*sy)),
		).Add(b.Min).Intersect(b)
		if !r.Empty() {
			out = append(out, r)
		}
	}
	return out
}

// BlackOut fills the rectangles opaque black in a copy of img and encodes
// it as PNG.
func BlackOut(img image.Image, rects []image.Rectangle) ([]byte, error) {
	b := img.Bounds()
	dst := image.NewRGBA(b)
	draw.Draw(dst, b, img, b.Min, draw.Src)
	black := image.NewUniform(color.Black)
	for _, r := range rects {
		draw.Draw(dst, r, black, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, dst); err != nil {
		return nil, fmt.Errorf("mask: write the screenshot: %w", err)
	}
	return buf.Bytes(), nil
}

// highlightWidth is the width, in image pixels, of the outline drawn
// around a highlighted element.
const highlightWidth = 3

// highlightColor is the outline's colour: a red that pages seldom use.
var highlightColor = color.RGBA{R: 0xff, G: 0x1f, B: 0x4b, A: 0xff}

// Outline draws a frame around each rectangle, inside it, in a copy
// of img, and encodes it as PNG.
func Outline(img image.Image, rects []image.Rectangle) ([]byte, error) {
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

// QuadBounds is the bounding box of a quad (four x, y points).
func QuadBounds(q []float64) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = q[0], q[1], q[0], q[1]
	for i := 0; i < 8; i += 2 {
		minX, maxX = math.Min(minX, q[i]), math.Max(maxX, q[i])
		minY, maxY = math.Min(minY, q[i+1]), math.Max(maxY, q[i+1])
	}
	return
}
