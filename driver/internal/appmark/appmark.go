// Package appmark tells which application a tab shows (issue 19): the
// apps its URL allows (the session's table: the configuration's [[apps]],
// then the built-in ones) are told apart by their markers, all checked in
// one script in waymark's isolated world. A marker the page's document
// cannot parse counts as absent. It also finds a canvas grid, the sign of
// a spreadsheet drawn on a canvas.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. The session's table (the browser's options) is
// the core's, and so is what a look or a sheet call does with the answer.
package appmark

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chromedp/cdproto/cdp"

	"github.com/waymark-dev/waymark/apps"
)

// Tab is the view of a tab the room needs (driver's tab, surface.go).
type Tab interface {
	// Doc returns the tab's main frame and its document's URL.
	Doc() (frame cdp.FrameID, url string)
	// EvalWorld evaluates expr in waymark's isolated world of frame and
	// decodes the result into out.
	EvalWorld(ctx context.Context, frame cdp.FrameID, expr string, out any) error
}

// jsMarkers reports which of the selectors match in the document.
const jsMarkers = `((sels) => sels.map(s => { try { return !!document.querySelector(s); } catch (e) { return false; } }))`

// Detect returns the application of table the tab shows, or nil. A page
// that cannot be asked (gone, busy) shows none.
func Detect(ctx context.Context, t Tab, table []apps.App) *apps.App {
	frame, url := t.Doc()
	cands := apps.Candidates(table, url)
	if len(cands) == 0 {
		return nil
	}
	var sels []string
	for _, a := range cands {
		if a.Marker != "" {
			sels = append(sels, a.Marker)
		}
	}
	found := map[string]bool{}
	if len(sels) > 0 {
		arg, _ := json.Marshal(sels)
		var got []bool
		if err := t.EvalWorld(ctx, frame, fmt.Sprintf("%s(%s)", jsMarkers, arg), &got); err != nil {
			return nil
		}
		for i, ok := range got {
			if i < len(sels) {
				found[sels[i]] = ok
			}
		}
	}
	return apps.Pick(cands, func(sel string) bool { return found[sel] })
}

// jsCanvasGrid describes the canvas grid the page shows ("div#grid >
// canvas, 800×500"), or "": the largest canvas in the view, covering a
// good part of it (a fifth), that it or one of the few elements around it
// is named like a grid (a class, id, role or label with sheet, grid,
// spreadsheet, table or cell). A chart is a canvas too, and is named
// otherwise.
const jsCanvasGrid = `(() => {
  const vw = innerWidth, vh = innerHeight;
  let best = null, area = 0, bw = 0, bh = 0;
  for (const c of document.querySelectorAll('canvas')) {
    const r = c.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)), h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    if (w * h > area) { area = w * h; best = c; bw = Math.round(r.width); bh = Math.round(r.height); }
  }
  if (!best || area < vw * vh / 5) return '';
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  for (let e = best, i = 0; e && e !== document.body && i < 5; e = e.parentElement, i++) {
    const words = [e.id, typeof e.className === 'string' ? e.className : '', e.getAttribute('role') || '', e.getAttribute('aria-label') || ''].join(' ').toLowerCase();
    if (/sheet|grid|spreadsheet|table|cell/.test(words)) {
      return (e === best ? '' : name(e) + ' > ') + name(best) + ', ' + bw + '×' + bh;
    }
  }
  return '';
})()`

// CanvasGrid describes the canvas grid the tab shows (jsCanvasGrid), or
// "" when it shows none or cannot be asked.
func CanvasGrid(ctx context.Context, t Tab) string {
	var got string
	frame, _ := t.Doc()
	if err := t.EvalWorld(ctx, frame, jsCanvasGrid, &got); err != nil {
		return ""
	}
	return got
}
