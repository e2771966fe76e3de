package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/locator"
)

// maskPad is how far, in CSS pixels, a mask reaches beyond the element's
// border box: a focus ring or a rounding of the box must not show an edge
// of the text.
const maskPad = 2

// box is a rectangle in CSS pixels of the tab's viewport.
type box struct{ x0, y0, x1, y1 float64 }

// maskShot blacks out boxes and the elements named by targets in a PNG just
// captured. clip is the capture's clip in page coordinates, or nil for
// the viewport. The masking is done on the image: nothing is added to the
// page. A target no longer on the page has nothing to hide and is skipped;
// any other failure is returned, never an unmasked image.
func (s *Session) maskShot(ctx context.Context, t *tab, data []byte, clip *page.Viewport, targets []string, boxes []box) ([]byte, error) {
	for _, what := range targets {
		bs, err := s.maskBoxes(ctx, t, what)
		if err != nil {
			return nil, fmt.Errorf("mask %s: %w", strings.TrimSpace(what), err)
		}
		boxes = append(boxes, bs...)
	}
	if len(boxes) == 0 {
		return data, nil
	}
	metrics, err := call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("mask: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("mask: read the screenshot: %w", err)
	}
	rects := toImage(boxes, img.Bounds(), clip, metrics.CSSVisualViewport)
	if len(rects) == 0 {
		return data, nil
	}
	return blackOut(img, rects)
}

// maskBoxes returns the boxes of what (a ref or a locator) in viewport
// coordinates: every element a locator matches now (masking more than
// one is safer than refusing), none when the element is gone or not
// rendered. Nothing is waited for: the picture is already taken.
func (s *Session) maskBoxes(ctx context.Context, t *tab, what string) ([]box, error) {
	what = strings.TrimSpace(what)
	if what == "" {
		return nil, nil
	}
	var els []*element
	if ref, ok := normalizeRef(what); ok {
		el, err := s.maskRef(t, ref)
		if err != nil {
			return nil, err
		}
		if el != nil {
			els = []*element{el}
		}
	} else {
		loc, err := locator.Parse(what)
		if err != nil {
			return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(),
				Hint: `mask a ref (@e12) or a locator such as label=…, testid=… or css=…`}
		}
		if els, err = s.match(ctx, t, loc); err != nil {
			return nil, err
		}
	}
	var out []box
	for _, el := range els {
		bs, err := elementBoxes(ctx, el)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

// maskRef is the element of a ref for masking, or nil when it is on
// another tab or in a frame that is gone. Unlike [Session.findRef] it does
// not check that the node still is what the ref showed: a node reused for
// something else is masked too, which hides too much, never too little
// (and a field's identity may change with what was typed into it).
func (s *Session) maskRef(t *tab, ref string) (*element, error) {
	e, ok := s.refs.lookup(ref)
	if !ok {
		return nil, unknownRef(ref)
	}
	if e.tab != t {
		return nil, nil
	}
	sess, err := t.session(e.target)
	if err != nil {
		return nil, nil
	}
	return &element{tab: t, tid: e.target, sess: sess, frame: e.key.frame, node: e.key.node, what: ref, line: e.line}, nil
}

// elementBoxes returns the bounds of each of an element's quads (a
// wrapped inline element has several), moved into the tab's viewport.
func elementBoxes(ctx context.Context, el *element) ([]box, error) {
	quads, err := cdpCallEl(ctx, el, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: el.node})
	if noBox(err) || errors.Is(err, calls.ErrStaleRef) {
		return nil, nil // not rendered, or gone: nothing shows
	}
	if err != nil {
		return nil, err
	}
	dx, dy, err := el.tab.frameOffset(ctx, el.tid)
	if errors.Is(err, calls.ErrStaleRef) {
		return nil, nil // its frame is gone
	}
	if err != nil {
		return nil, err
	}
	var out []box
	for _, q := range quads.Quads {
		if len(q) != 8 {
			continue
		}
		x0, y0, x1, y1 := quadBounds(q)
		out = append(out, box{x0 + dx, y0 + dy, x1 + dx, y1 + dy})
	}
	return out, nil
}

// toImage turns viewport boxes into padded pixel rectangles of an image
// of bounds b, dropping those outside it. For a clipped capture (the full
// page, an element) the image shows the clip, in page coordinates, at
// image width / clip width pixels per CSS pixel. A viewport capture shows
// the visual viewport; its pixels per CSS pixel are the smaller ratio of
// the two sides, since a scrollbar (when not hidden) is in the image but
// not in the viewport's client size.
func toImage(boxes []box, b image.Rectangle, clip *page.Viewport, vv *page.VisualViewport) []image.Rectangle {
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
			int(math.Floor((bx.x0+ox-maskPad)*sx)), int(math.Floor((bx.y0+oy-maskPad)*sy)),
			int(math.Ceil((bx.x1+ox+maskPad)*sx)), int(math.Ceil((bx.y1+oy+maskPad)*sy)),
		).Add(b.Min).Intersect(b)
		if !r.Empty() {
			out = append(out, r)
		}
	}
	return out
}

// blackOut fills the rectangles opaque black in a copy of img and encodes
// it as PNG.
func blackOut(img image.Image, rects []image.Rectangle) ([]byte, error) {
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
