package driver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/waymark-dev/waymark/apps"
)

// Knowing the application (issue 19): the apps the URL allows (the
// session's table: the configuration's [[apps]], then the built-in ones)
// are told apart by their markers, all checked in one script in our
// isolated world. A marker the page's document cannot parse counts as
// absent.

// jsMarkers reports which of the selectors match in the document.
const jsMarkers = `((sels) => sels.map(s => { try { return !!document.querySelector(s); } catch (e) { return false; } }))`

// appTable is the session's table of applications.
func (s *Session) appTable() []apps.App { return apps.With(s.browser.opts.Apps) }

// detectApp returns the application the tab shows, or nil. A page that
// cannot be asked (gone, busy) shows none.
func (s *Session) detectApp(ctx context.Context, t *tab) *apps.App {
	cands := apps.Candidates(s.appTable(), t.url())
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
		if err := t.evalWorld(ctx, t.sess, t.mainFrame(), fmt.Sprintf("%s(%s)", jsMarkers, arg), &got); err != nil {
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

// canvasGrid describes the canvas grid the tab shows (jsCanvasGrid), or
// "" when it shows none or cannot be asked.
func (s *Session) canvasGrid(ctx context.Context, t *tab) string {
	var got string
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), jsCanvasGrid, &got); err != nil {
		return ""
	}
	return got
}
