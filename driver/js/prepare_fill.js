function () {
  // Says how to fill this element, and for typed text selects what it holds
  // so that the typed value replaces it.
  const el = this;
  const tag = el.tagName ? el.tagName.toLowerCase() : '';
  const setTypes = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'];
  const textTypes = ['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number'];
  if (tag === 'input') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (setTypes.includes(type)) return 'set:' + type;
    if (!textTypes.includes(type)) return 'not-fillable:input type=' + type;
  } else if (tag !== 'textarea' && !el.isContentEditable) {
    return 'not-fillable:' + (tag || 'node');
  }
  if (el.disabled) return 'not-fillable:disabled';
  if (el.readOnly) return 'not-fillable:read-only';
  el.focus();
  if (tag === 'input' || tag === 'textarea') {
    try { el.select(); } catch (e) { el.setSelectionRange(0, el.value.length); }
  } else {
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  return 'type';
}
