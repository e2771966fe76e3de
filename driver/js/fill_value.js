function (value) {
  // For inputs whose value a keyboard cannot type in one go (date, color,
  // range): set it the way the browser's own picker does, through the
  // native setter, then fire input and change.
  const el = this;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setter.call(el, value);
  if (el.value !== value && value !== '') {
    // Neither the value nor what the field made of it is quoted: the
    // value may be a secret, and errors reach logs and models.
    return 'the field did not take the value (' + (el.type || 'input') + ' field)';
  }
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return '';
}
