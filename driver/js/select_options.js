function (wanted) {
  // Selects the options whose value or label (visible text) equals one of
  // wanted, then fires input and change as a person's choice would.
  const el = this;
  if (!el.tagName || el.tagName.toLowerCase() !== 'select') {
    return { error: 'not a <select> element (it is <' + (el.tagName || 'node').toLowerCase() + '>)' };
  }
  if (el.disabled) return { error: 'the select is disabled' };
  const opts = Array.from(el.options);
  const norm = s => s.replace(/\s+/g, ' ').trim();
  const chosen = [];
  // Errors never quote a wanted value: it may be a secret, and errors
  // reach logs and models. They say which one by its place.
  const which = i => wanted.length > 1 ? 'value ' + (i + 1) + ' of ' + wanted.length : 'the value';
  for (const [i, w] of wanted.entries()) {
    const o = opts.find(o => o.value === w) || opts.find(o => norm(o.label || o.text) === norm(w)) ||
      opts.find(o => norm(o.label || o.text).toLowerCase() === norm(w).toLowerCase());
    if (!o) return { error: 'no option matches ' + which(i), options: opts.map(o => norm(o.label || o.text)) };
    if (o.disabled) return { error: 'the option matching ' + which(i) + ' is disabled' };
    chosen.push(o);
  }
  if (!el.multiple && chosen.length > 1) return { error: 'the select takes one option, got ' + chosen.length };
  for (const o of opts) o.selected = chosen.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: chosen.map(o => norm(o.label || o.text)) };
}
