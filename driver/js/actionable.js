async function (checks) {
  // One look at the element before a pointer action, the checks of rod's
  // Interactable: attached, visible, still over one animation frame,
  // enabled, and the top element at its centre. Coordinates are this frame's
  // viewport; the caller adds where the frame sits in the page.
  const el = this;
  if (!el.isConnected) return { state: 'gone' };
  const box = () => {
    // The biggest of its boxes: a link that wraps has several.
    let best = null, area = 0.5;
    for (const r of el.getClientRects()) {
      if (r.width * r.height > area) { best = r; area = r.width * r.height; }
    }
    return best && { x: best.left, y: best.top, w: best.width, h: best.height };
  };
  const style = getComputedStyle(el);
  const first = box();
  if (!first || style.visibility === 'hidden' || style.visibility === 'collapse') return { state: 'hidden' };
  // Stability matters where the pointer lands; keys go to the element
  // wherever it is, so a typing action skips the frame's wait. A pointer
  // action that moves the mouse onto the element first (pointer.go) lets
  // the move stand for the frame (the browser hands a mouse move to the
  // page at a frame), and checks.was is where this found it before.
  if (checks.hit && !checks.moved) await new Promise(r => requestAnimationFrame(() => r()));
  const b = box();
  if (!b) return { state: 'hidden' };
  if (b.x !== first.x || b.y !== first.y || b.w !== first.w || b.h !== first.h) return { state: 'moving' };
  const x = b.x + b.w / 2, y = b.y + b.h / 2;
  const was = checks.was;
  if (was && (was.x !== x || was.y !== y || was.w !== b.w || was.h !== b.h)) return { state: 'moving' };
  if (checks.enabled) {
    let disabled = el.disabled === true;
    const fs = !disabled && el.closest && el.closest('fieldset[disabled]');
    if (fs) {
      const legend = fs.querySelector(':scope > legend');
      disabled = !legend || !legend.contains(el);
    }
    if (!disabled && el.closest && el.closest('[aria-disabled="true"]')) disabled = true;
    if (disabled) return { state: 'disabled' };
  }
  if (checks.hit) {
    // elementFromPoint skips what has pointer-events: none, as a click does.
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    let inside = !hit;
    for (let n = hit; n && !inside; n = n.assignedSlot || n.parentNode || n.host) inside = n === el;
    const label = hit && hit.closest && hit.closest('label');
    if (!inside && label && label.control === el) inside = true; // a label forwards its clicks
    if (!inside) {
      const role = hit.getAttribute('role') || hit.tagName.toLowerCase();
      let name = hit.getAttribute('aria-label') || hit.getAttribute('title') || hit.innerText || hit.textContent || '';
      name = name.replace(/\s+/g, ' ').trim();
      if (name.length > 60) name = name.slice(0, 59) + '…';
      let by = role;
      if (hit.id) by += '#' + hit.id;
      else if (typeof hit.className === 'string' && hit.className.trim()) by += '.' + hit.className.trim().split(/\s+/).slice(0, 2).join('.');
      if (name) by += ' "' + name + '"';
      // The box the cover sits in (a fixed or sticky container, a
      // dialog): its text and its controls' labels, where a recorded
      // dismissal is looked for (as overlays.js lists them).
      let box = null;
      for (let n = hit; n && n.nodeType === 1 && n !== document.body && n !== document.documentElement; n = n.parentElement || (n.getRootNode && n.getRootNode().host)) {
        const pos = getComputedStyle(n).position;
        const r = n.getAttribute('role');
        if (pos === 'fixed' || pos === 'sticky' || n.tagName === 'DIALOG' || r === 'dialog' || r === 'alertdialog') { box = n; break; }
      }
      let text = '';
      const buttons = [];
      if (box) {
        text = (box.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 300);
        for (const b of box.querySelectorAll('button, [role=button], a[href], input[type=button], input[type=submit]')) {
          const br = b.getBoundingClientRect();
          if (br.width <= 0 || br.height <= 0) continue;
          buttons.push((b.getAttribute('aria-label') || b.innerText || b.value || '').replace(/\s+/g, ' ').trim().slice(0, 60));
          if (buttons.length >= 12) break;
        }
      }
      return { state: 'covered', by, x, y, text, buttons, opened: openedBy(hit) };
    }
  }
  // A press on it may start a download (below). First, openedBy: whether
  // what covers it is a popup the focused text field opened as it was
  // typed into (an autocomplete's menu): named by the field's
  // aria-controls, aria-owns or list, or a box laid over the page
  // (absolute or fixed) that starts at the field's lower or upper edge
  // and overlaps it across. The caller closes such a menu as leaving
  // the field does, and checks again.
  function openedBy(hit) {
    const f = document.activeElement;
    if (!f || f === el || f.contains(hit) || hit.contains(f)) return false;
    const role = f.getAttribute('role') || '';
    const typing = f.matches('input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), textarea') ||
      f.isContentEditable || role === 'combobox' || role === 'searchbox' || role === 'textbox';
    if (!typing) return false;
    for (const a of ['aria-controls', 'aria-owns', 'list']) {
      for (const id of (f.getAttribute(a) || '').split(/\s+/)) {
        const p = id && document.getElementById(id);
        if (p && p.contains(hit)) return true;
      }
    }
    const fb = f.getBoundingClientRect();
    for (let n = hit; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      const pos = getComputedStyle(n).position;
      if (pos !== 'absolute' && pos !== 'fixed') continue;
      const pb = n.getBoundingClientRect();
      const across = pb.left < fb.right && pb.right > fb.left;
      const below = Math.abs(pb.top - fb.bottom) <= 8, above = Math.abs(pb.bottom - fb.top) <= 8;
      return across && (below || above);
    }
    return false;
  }
  // Whether a press on it may start a download, which the browser, not
  // the page, announces (settle.go waits a moment for one): a link, or a
  // control that submits a form.
  const link = el.closest && el.closest('a[href], area[href]');
  const submits = el.form && (el.type === 'submit' || el.type === 'image');
  // checks.inView (pointer.go): the caller did not scroll it into view
  // first, and does when it is not wholly in view, in the viewport and in
  // each ancestor that clips it, as DOM.scrollIntoViewIfNeeded judges.
  let inView = false;
  if (checks.inView) {
    inView = b.x >= 0 && b.y >= 0 && b.x + b.w <= innerWidth && b.y + b.h <= innerHeight;
    for (let n = el.parentElement; inView && n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      const o = getComputedStyle(n);
      if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
      const r = n.getBoundingClientRect();
      inView = b.x >= r.left && b.y >= r.top && b.x + b.w <= r.right && b.y + b.h <= r.bottom;
    }
  }
  return { state: 'ok', x, y, w: b.w, h: b.h, dl: !!(link || submits), inView };
}
