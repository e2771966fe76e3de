function () {
  // Boxes drawn over the page, found by where they are drawn: what is on
  // top at a few points of the view, walked up to its fixed or sticky
  // container, plus modal dialogs and open popovers in the top layer. A
  // thin bar at the top (a header) is not an overlay.
  const vw = innerWidth, vh = innerHeight;
  const seen = new Set(), out = [];
  const sig = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : '') +
    ' ' + (el.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 40);
  const describe = (el, kind) => {
    if (seen.has(el)) return;
    seen.add(el);
    const r = el.getBoundingClientRect();
    const buttons = [];
    for (const b of el.querySelectorAll('button, [role=button], a[href], input[type=button], input[type=submit]')) {
      const br = b.getBoundingClientRect();
      if (br.width <= 0 || br.height <= 0) continue;
      const label = (b.getAttribute('aria-label') || b.innerText || b.value || '').replace(/\s+/g, ' ').trim();
      buttons.push({ text: label.slice(0, 60), x: br.left + br.width / 2, y: br.top + br.height / 2 });
      if (buttons.length >= 12) break;
    }
    const focused = document.activeElement;
    out.push({
      sig: sig(el), kind, text: (el.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 300),
      buttons, focus: !!(focused && focused !== document.body && el.contains(focused)),
      box: { x: r.left, y: r.top, w: r.width, h: r.height },
    });
  };
  for (const d of document.querySelectorAll('dialog[open], [popover]')) {
    let top = false;
    try { top = d.matches(':modal') || d.matches(':popover-open'); } catch (e) { /* older engines */ }
    if (top) describe(d, 'dialog');
  }
  const points = [[vw / 2, vh / 2], [vw / 2, vh * 0.92], [vw / 2, vh * 0.3]];
  for (const [x, y] of points) {
    let el = document.elementFromPoint(x, y);
    for (let n = el; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      const st = getComputedStyle(n);
      if (st.position !== 'fixed' && st.position !== 'sticky') continue;
      const r = n.getBoundingClientRect();
      const area = (r.width * r.height) / (vw * vh);
      const thinTop = r.top <= 1 && r.height < vh * 0.15;
      if (thinTop) break;
      const centre = r.left <= vw / 2 && r.right >= vw / 2 && r.top <= vh / 2 && r.bottom >= vh / 2;
      const sheet = r.bottom >= vh - 2 && r.width >= vw * 0.8 && r.height >= vh * 0.1;
      if (centre || sheet || area >= 0.3) {
        describe(n, sheet && !centre ? 'sheet' : (area >= 0.9 ? 'scrim' : 'box'));
      }
      break;
    }
  }
  return out;
}
