function () {
  // What the element is now, to compare with what its ref showed.
  const el = this;
  const text = (el.innerText !== undefined ? el.innerText : el.textContent) || '';
  return { connected: el.isConnected, tag: (el.tagName || '').toLowerCase(), text: text.slice(0, 400) };
}
