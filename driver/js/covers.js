function (hit) {
  // Is hit this element or inside it (across open shadow roots and slots)?
  for (let n = hit; n; n = n.assignedSlot || n.parentNode || n.host) {
    if (n === this) return { inside: true, by: '' };
  }
  // Name what covers it the way the outline would: role or tag, then its
  // label or text.
  const el = hit.nodeType === 1 ? hit : hit.parentElement;
  if (!el) return { inside: false, by: 'another element' };
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
