package shot

import (
	"image"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/google/go-cmp/cmp"
)

// TestToImage maps viewport boxes into the pixels of each kind of capture,
// at device pixel ratios the browser tests do not reach.
func TestToImage(t *testing.T) {
	vv := &page.VisualViewport{PageX: 0, PageY: 500, ClientWidth: 1280, ClientHeight: 720}
	field := []Box{{100, 50, 300, 90}}
	tests := []struct {
		name  string
		boxes []Box
		img   image.Rectangle
		clip  *page.Viewport
		vv    *page.VisualViewport
		want  []image.Rectangle
	}{
		{"viewport", field, image.Rect(0, 0, 1280, 720), nil, vv,
			[]image.Rectangle{image.Rect(98, 48, 302, 92)}},
		{"viewport at 2x", field, image.Rect(0, 0, 2560, 1440), nil, vv,
			[]image.Rectangle{image.Rect(196, 96, 604, 184)}},
		// A scrollbar is in the image but not in the client width.
		{"viewport with a scrollbar", field, image.Rect(0, 0, 1280, 720), nil,
			&page.VisualViewport{ClientWidth: 1265, ClientHeight: 720},
			[]image.Rectangle{image.Rect(98, 48, 302, 92)}},
		{"full page", field, image.Rect(0, 0, 1280, 3000), &page.Viewport{Width: 1280, Height: 3000, Scale: 1}, vv,
			[]image.Rectangle{image.Rect(98, 548, 302, 592)}},
		{"full page at 2x", field, image.Rect(0, 0, 2560, 6000), &page.Viewport{Width: 1280, Height: 3000, Scale: 1}, vv,
			[]image.Rectangle{image.Rect(196, 1096, 604, 1184)}},
		{"element", field, image.Rect(0, 0, 400, 200), &page.Viewport{X: 80, Y: 520, Width: 400, Height: 200, Scale: 1}, vv,
			[]image.Rectangle{image.Rect(18, 28, 222, 72)}},
		{"element at 1.5x, cut at its edge", []Box{{60, 0, 700, 40}}, image.Rect(0, 0, 600, 300), &page.Viewport{X: 80, Y: 520, Width: 400, Height: 200, Scale: 1}, vv,
			[]image.Rectangle{image.Rect(0, 0, 600, 33)}},
		{"outside the image", []Box{{100, -200, 300, -100}, {2000, 50, 2100, 90}}, image.Rect(0, 0, 1280, 720), nil, vv, nil},
		{"no metrics", field, image.Rect(0, 0, 1280, 720), nil, nil,
			[]image.Rectangle{image.Rect(98, 48, 302, 92)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ToImage(tt.boxes, tt.img, tt.clip, tt.vv)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rectangles (-want +got):\n%s", diff)
			}
		})
	}
}
