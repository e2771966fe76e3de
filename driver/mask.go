package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/shot"
	"github.com/waymark-dev/waymark/internal/locator"
)

// box is a rectangle in CSS pixels of the tab's viewport (package shot
// draws with it).
type box = shot.Box

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
	rects := shot.ToImage(boxes, img.Bounds(), clip, metrics.CSSVisualViewport)
	if len(rects) == 0 {
		return data, nil
	}
	return shot.BlackOut(img, rects)
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
		x0, y0, x1, y1 := shot.QuadBounds(q)
		out = append(out, box{X0: x0 + dx, Y0: y0 + dy, X1: x1 + dx, Y1: y1 + dy})
	}
	return out, nil
}
