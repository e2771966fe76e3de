// The boxes of drawn content in the view, for the pilot's vision rule
// (view.go): canvas, svg (the outermost of nested ones), video, embed,
// object and img, each clipped to the viewport, with the viewport's size.
// Runs in our isolated world; reads layout only.
function () {
  const vw = window.innerWidth, vh = window.innerHeight;
  const out = [];
  for (const el of document.querySelectorAll('canvas, svg, video, embed, object, img')) {
    const tag = el.tagName.toLowerCase();
    if (tag === 'svg' && el.parentElement && el.parentElement.closest('svg')) continue;
    const r = el.getBoundingClientRect();
    const x0 = Math.max(0, r.left), y0 = Math.max(0, r.top);
    const x1 = Math.min(vw, r.right), y1 = Math.min(vh, r.bottom);
    if (x1 <= x0 || y1 <= y0) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || Number(cs.opacity) === 0) continue;
    out.push({tag: tag, x: x0, y: y0, w: x1 - x0, h: y1 - y0});
  }
  return {w: vw, h: vh, boxes: out};
}
