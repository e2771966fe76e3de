function () {
  const el = this;
  const tag = el.tagName ? el.tagName.toLowerCase() : '';
  if (tag === 'input') {
    const type = (el.type || '').toLowerCase();
    if (type === 'checkbox' || type === 'radio') return { checkable: true, checked: el.checked };
  }
  const role = el.getAttribute && el.getAttribute('role');
  if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
    return { checkable: true, checked: el.getAttribute('aria-checked') === 'true' };
  }
  // A label: follow it to its control.
  if (tag === 'label' && el.control) {
    const c = el.control;
    if (c.type === 'checkbox' || c.type === 'radio') return { checkable: true, checked: c.checked };
  }
  return { checkable: false, checked: false };
}
