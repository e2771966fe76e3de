package driver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

// maskFields styles the fields of the masking tests: one flat colour,
// text included, so that any pixel of a field is known.
const maskFields = `<style>
body { margin: 0; background: #fff }
input { display: block; box-sizing: border-box; border: 0; outline: 0; padding: 0; margin: 30px;
  width: 320px; height: 64px; background: #0f0; color: #0f0; font: 32px monospace }
</style>`

// rect is a box in the capture's CSS pixels.
type rect struct{ X, Y, W, H float64 }

// shotBoxes is what a test page reports: where the masked fields and the
// plain ones are in the capture, and how wide the capture is in CSS pixels.
type shotBoxes struct {
	Masked []rect
	Plain  []rect
	Width  float64
}

// jsBox is a function for the test's expressions: an element's box
// relative to a point.
const jsBox = `const box = (el, dx = 0, dy = 0) => { const r = el.getBoundingClientRect(); return {X: r.x + dx, Y: r.y + dy, W: r.width, H: r.height}; };`

func TestScreenshotMask(t *testing.T) {
	t.Parallel()
	const inner = `<!doctype html>` + maskFields + `<input id=k aria-label=Key value="SECRET-Key-123"><input id=o aria-label=Other value="plain">`
	cases := []struct {
		name  string
		page  string
		setup string // run before the screenshot
		req   calls.ScreenshotRequest
		mask  func(t *testing.T, outline string) []string
		boxes string // an expression for shotBoxes
	}{{
		name: "viewport",
		page: `<!doctype html>` + maskFields + `<input id=k value="SECRET-Key-123"><input id=o value="SECRET-Key-123">`,
		mask: func(*testing.T, string) []string { return []string{"css=#k"} },
		boxes: `(() => { ` + jsBox + ` const q = s => document.querySelector(s);
			return {Masked: [box(q('#k'))], Plain: [box(q('#o'))], Width: innerWidth}; })()`,
	}, {
		// Scrolled down, with the masked field below the fold and the
		// plain one above the view: the full page has both.
		name: "full page scrolled",
		page: `<!doctype html>` + maskFields + `<input id=o value="plain"><div style="height:1400px"></div>
<input id=k value="SECRET-Key-123"><div style="height:800px"></div>`,
		setup: `window.scrollTo(0, 300)`,
		req:   calls.ScreenshotRequest{Full: true},
		mask:  func(*testing.T, string) []string { return []string{"css=#k"} },
		boxes: `(() => { ` + jsBox + ` const q = s => document.querySelector(s);
			return {Masked: [box(q('#k'), scrollX, scrollY)], Plain: [box(q('#o'), scrollX, scrollY)], Width: document.documentElement.scrollWidth}; })()`,
	}, {
		name: "element",
		page: `<!doctype html>` + maskFields + `<div style="height:1200px"></div>
<div id=box style="display:inline-block; padding:10px 40px; background:#fff"><input id=k value="SECRET-Key-123"><input id=o value="plain"></div>
<div style="height:1200px"></div>`,
		req:  calls.ScreenshotRequest{Target: "css=#box"},
		mask: func(*testing.T, string) []string { return []string{"css=#k"} },
		boxes: `(() => { ` + jsBox + ` const q = s => document.querySelector(s); const b = q('#box').getBoundingClientRect();
			return {Masked: [box(q('#k'), -b.x, -b.y)], Plain: [box(q('#o'), -b.x, -b.y)], Width: b.width}; })()`,
	}, {
		// A same-origin frame and a cross-site one (its own process),
		// each masked by its field's ref.
		name: "iframes",
		page: `<!doctype html>` + maskFields + `<div style="height:40px"></div>
<iframe id=same src="/inner" title="same" width=420 height=240 style="margin-left:50px"></iframe>
<iframe id=cross src="{{other}}/inner" title="cross" width=420 height=240></iframe>`,
		mask: func(t *testing.T, outline string) []string {
			var refs []string
			for _, line := range strings.Split(outline, "\n") {
				if strings.Contains(line, `textbox "Key"`) {
					refs = append(refs, "@"+refOf(t, line, `textbox "Key"`))
				}
			}
			if len(refs) != 2 {
				t.Fatalf("want a Key field in each frame:\n%s", outline)
			}
			return refs
		},
		// The cross-site frame's document cannot be read from here; its
		// fields sit where maskFields puts them.
		boxes: `(() => { ` + jsBox + ` const same = document.querySelector('#same'), cross = document.querySelector('#cross');
			const fs = same.getBoundingClientRect(), fc = cross.getBoundingClientRect();
			const sx = fs.x + same.clientLeft, sy = fs.y + same.clientTop, cx = fc.x + cross.clientLeft, cy = fc.y + cross.clientTop;
			return {Masked: [box(same.contentDocument.querySelector('#k'), sx, sy), {X: cx + 30, Y: cy + 30, W: 320, H: 64}],
				Plain: [box(same.contentDocument.querySelector('#o'), sx, sy), {X: cx + 30, Y: cy + 124, W: 320, H: 64}],
				Width: innerWidth}; })()`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, ctx := newSession(t)
			srv := serve(t, map[string]string{"/": c.page, "/inner": inner})
			open(t, s, ctx, srv.URL)
			mask := c.mask(t, snapshot(t, s, ctx, calls.SnapshotRequest{Full: true}))
			if c.setup != "" {
				if _, err := s.Eval(ctx, calls.EvalRequest{Expression: c.setup}); err != nil {
					t.Fatal(err)
				}
			}
			boxes := func() shotBoxes {
				res, err := s.Eval(ctx, calls.EvalRequest{Expression: c.boxes})
				if err != nil {
					t.Fatal(err)
				}
				var b shotBoxes
				if err := json.Unmarshal(res.Value, &b); err != nil || b.Width == 0 {
					t.Fatalf("boxes %s: %v", res.Value, err)
				}
				return b
			}

			// Unmasked, the secret field shows: the check below can fail.
			img := shot(t, s, ctx, c.req)
			b := boxes()
			for _, r := range b.Masked {
				if at := pixel(img, b.Width, r); !green(at) {
					t.Fatalf("unmasked, the field %+v is %v, not green; the test page is off", r, at)
				}
			}

			req := c.req
			req.Mask = mask
			img = shot(t, s, ctx, req)
			b = boxes()
			for _, r := range b.Masked {
				// The centre and each corner, a pixel inside.
				for _, p := range []rect{{r.X + r.W/2, r.Y + r.H/2, 0, 0}, {r.X + 1, r.Y + 1, 0, 0}, {r.X + r.W - 1, r.Y + 1, 0, 0},
					{r.X + 1, r.Y + r.H - 1, 0, 0}, {r.X + r.W - 1, r.Y + r.H - 1, 0, 0}} {
					if at := pixel(img, b.Width, p); !black(at) {
						t.Errorf("masked field %+v: at (%.0f,%.0f) the image is %v, not black", r, p.X, p.Y, at)
					}
				}
			}
			for _, r := range b.Plain {
				if at := pixel(img, b.Width, rect{r.X + r.W/2, r.Y + r.H/2, 0, 0}); !green(at) {
					t.Errorf("the plain field %+v is %v, not green", r, at)
				}
			}
		})
	}
}

// TestScreenshotMaskNothingThere: a target that is not on the page (no
// match, a ref whose element is gone, a hidden field) has nothing to
// hide; a bad locator fails the screenshot.
func TestScreenshotMaskNothingThere(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html>` + maskFields + `<button id=b>Gone soon</button>
<input id=h style="display:none" value="SECRET-Key-123"><input id=o value="plain">`})
	open(t, s, ctx, srv.URL)
	gone := "@" + refOf(t, snapshot(t, s, ctx, calls.SnapshotRequest{}), `button "Gone soon"`)
	evalString(t, s, ctx, `document.querySelector('#b').remove()`)
	img, err := s.Screenshot(ctx, calls.ScreenshotRequest{Mask: []string{"css=#nothing", gone, "css=#h", "text=No such words"}})
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if _, err := png.Decode(bytes.NewReader(img.Data)); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if _, err := s.Screenshot(ctx, calls.ScreenshotRequest{Mask: []string{"#h"}}); err == nil {
		t.Error("a bad locator as a mask: no error")
	}
}

func shot(t *testing.T, s *driver.Session, ctx context.Context, req calls.ScreenshotRequest) image.Image {
	t.Helper()
	img, err := s.Screenshot(ctx, req)
	if err != nil {
		t.Fatalf("screenshot %+v: %v", req, err)
	}
	m, err := png.Decode(bytes.NewReader(img.Data))
	if err != nil {
		t.Fatalf("screenshot %+v: %v", req, err)
	}
	return m
}

// pixel is the colour at the top-left of r, in a capture width CSS
// pixels wide.
func pixel(img image.Image, width float64, r rect) [3]uint8 {
	scale := float64(img.Bounds().Dx()) / width
	c := img.At(img.Bounds().Min.X+int(r.X*scale), img.Bounds().Min.Y+int(r.Y*scale))
	cr, cg, cb, _ := c.RGBA()
	return [3]uint8{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8)}
}

func black(c [3]uint8) bool { return c[0] < 0x10 && c[1] < 0x10 && c[2] < 0x10 }
func green(c [3]uint8) bool { return c[0] < 0x40 && c[1] > 0xc0 && c[2] < 0x40 }
