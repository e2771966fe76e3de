package build

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/domsnapshot"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/outline"
)

// bigRows makes the generated page about 3,000 elements: a nav, a table of
// bigRows rows of five cells (one a link, one a button) and a footer.
const bigRows = 400

// bigPage returns the HTML of a long table page with a nav and a footer.
func bigPage(rows int) []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html><head><title>Big table</title></head><body>\n<header><nav aria-label=\"Main\"><ul>")
	for i := range 20 {
		fmt.Fprintf(&b, "<li><a href=\"/s%d\">Section %d</a></li>", i, i)
	}
	b.WriteString("</ul></nav><form role=\"search\"><input type=\"search\" aria-label=\"Search\"><button>Go</button></form></header>\n<main><h1>Orders</h1><table><thead><tr><th>#</th><th>Customer</th><th>Total</th><th>Status</th><th>Action</th></tr></thead><tbody>\n")
	for i := range rows {
		fmt.Fprintf(&b, "<tr><td>%d</td><td><a href=\"/c/%d\">Customer %d</a></td><td>%d.%02d €</td><td><span class=\"st\">shipped</span></td><td><button>Refund %d</button></td></tr>\n", i, i, i, i*7, i%100, i)
	}
	b.WriteString("</tbody></table></main><footer><h2>Help</h2><ul>")
	for i := range 20 {
		fmt.Fprintf(&b, "<li><a href=\"/h%d\">Help %d</a></li>", i, i)
	}
	b.WriteString("</ul></footer></body></html>\n")
	return b.Bytes()
}

// BenchmarkBuildRender measures Outline+Render of the recorded snapshot of the
// big page; the budget is well under 20 ms.
func BenchmarkBuildRender(b *testing.B) {
	rec := loadRecording(b, "big")
	opts := Options{Ref: testRef, Viewport: rec.Viewport}
	b.ReportAllocs()
	for b.Loop() {
		root, err := Outline(rec.Snapshot, opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := outline.Render(io.Discard, root, outline.RenderOptions{Full: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBrowser compares, on the big page in a real Chromium,
// captureSnapshot alone, Accessibility.getFullAXTree alone, and the whole
// outline (captureSnapshot, Outline, Render).
func BenchmarkBrowser(b *testing.B) {
	ts := testServer(b)
	ctx := browsertest.Tab(b)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/big.html")); err != nil {
		b.Fatal(err)
	}
	b.Run("captureSnapshot", func(b *testing.B) {
		for b.Loop() {
			if _, err := chromedp.Call(ctx, domsnapshot.CaptureSnapshot, Params()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("getFullAXTree", func(b *testing.B) {
		for b.Loop() {
			if _, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("outline", func(b *testing.B) {
		for b.Loop() {
			snap, err := chromedp.Call(ctx, domsnapshot.CaptureSnapshot, Params())
			if err != nil {
				b.Fatal(err)
			}
			root, err := Outline(&snap, Options{Ref: testRef})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := outline.Render(io.Discard, root, outline.RenderOptions{Full: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
