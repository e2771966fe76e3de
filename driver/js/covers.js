function (x, y) {
  // Is the element at (x, y) of this frame's viewport this element or inside
  // it (across open shadow roots and slots)? elementFromPoint skips what has
  // pointer-events: none, as a real click does.
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit) return { inside: true, by: '' }; // outside the layout: the press decides
  for (let n = hit; n; n = n.assignedSlot || n.parentNode || n.host) {
    if (n === this) return { inside: true, by: '' };
  }
  // A label that forwards its clicks to this control is no cover either.
  if (hit.closest && hit.closest('label') && hit.closest('label').control === this) return { inside: true, by: '' };
  // Name what covers it the way the outline would: role or tag, then its
  // label or text.
  const el = hit;
  const role = el.getAttribute('role') || el.tagName.toLowerCase();
  let name = el.getAttribute('aria-label') || el.getAttribute('title') || (el.innerText || el.textContent || '');
  name = name.replace(/\s+/g, ' ').trim();
  if (name.length > 60) name = name.slice(0, 59) + '…';
  let desc = role;
  if (el.id) desc += '#' + el.id;
  else if (typeof el.className === 'string' && el.className.trim()) desc += '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.');
  if (name) desc += ' "' + name + '"';
  return { inside: false, by: desc };
}
