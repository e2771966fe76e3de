function (names) {
  // What the element is now, to compare with what its ref showed: its tag,
  // its text, and the attributes that say which control it is.
  const el = this;
  const text = (el.innerText !== undefined ? el.innerText : el.textContent) || '';
  const attrs = {};
  for (const n of names) attrs[n] = (el.getAttribute && el.getAttribute(n)) || '';
  return { connected: el.isConnected, tag: (el.tagName || '').toLowerCase(), text: text.slice(0, 400), attrs };
}
