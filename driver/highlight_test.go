package driver_test

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestScreenshotHighlight: a highlighted element is framed in red on the
// image, around its box, and its inside is left as it was; a target that
// is not on the page is left out rather than fail the picture.
func TestScreenshotHighlight(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html>` + maskFields + `<input id=k aria-label=Key value="x">`})
	open(t, s, ctx, srv.URL+"/")
	img, err := s.Screenshot(ctx, calls.ScreenshotRequest{Highlight: []string{"css=#k", "css=#nope", "@e999"}})
	if err != nil {
		t.Fatal(err)
	}
	pic, err := png.Decode(bytes.NewReader(img.Data))
	if err != nil {
		t.Fatal(err)
	}
	// The field is at (30,30), 320×64 CSS pixels, at one image pixel a
	// CSS pixel (the default viewport, scale 1); the frame is drawn from
	// 2 pixels outside its box, 3 pixels wide.
	red := func(x, y int) bool {
		r, g, b, _ := pic.At(x, y).RGBA()
		return r>>8 > 0xe0 && g>>8 < 0x40 && b>>8 < 0x80
	}
	green := func(x, y int) bool {
		r, g, b, _ := pic.At(x, y).RGBA()
		return r>>8 < 0x20 && g>>8 > 0xe0 && b>>8 < 0x20
	}
	for _, p := range []image.Point{{29, 60}, {190, 29}, {350, 60}, {190, 94}} {
		if !red(p.X, p.Y) {
			t.Errorf("no red frame at %v: %v", p, pic.At(p.X, p.Y))
		}
	}
	for _, p := range []image.Point{{40, 40}, {190, 62}, {340, 85}} {
		if !green(p.X, p.Y) {
			t.Errorf("inside of the field changed at %v: %v", p, pic.At(p.X, p.Y))
		}
	}
	if red(10, 10) || red(400, 200) {
		t.Error("red away from the field")
	}
}
