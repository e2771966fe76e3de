function (names) {
  // What the element is now, to compare with what its ref showed: its tag,
  // its text, and the attributes that say which control it is. The
  // outline's text is the element's content as a name is computed from it:
  // an image gives its alt text, a child's aria-label stands for its
  // content, an input button its value. innerText has none of these, so
  // they are added after it (the comparison is by words, not by order): a
  // button that holds only an image would otherwise read as empty.
  const el = this;
  let text = (el.innerText !== undefined ? el.innerText : el.textContent) || '';
  if (el.querySelectorAll) {
    // The outline leaves out what the page hides from assistive
    // technology (aria-hidden): an icon glued to the words ("Next→", an
    // icon font's "deleteDelete") is taken out here too, one occurrence
    // of its text each, or the control would read as changed.
    const hiddenParts = el.querySelectorAll('[aria-hidden="true"]');
    for (let i = 0; i < hiddenParts.length && i < 50; i++) {
      const h = hiddenParts[i];
      if (h.parentElement && h.parentElement.closest('[aria-hidden="true"]') && el.contains(h.parentElement.closest('[aria-hidden="true"]'))) continue;
      const w = (h.innerText !== undefined ? h.innerText : h.textContent) || '';
      if (w.trim()) text = text.replace(w, ' ');
    }
    const words = [];
    const named = el.querySelectorAll('img[alt], [aria-label], input[type=image], input[type=submit], input[type=button], input[type=reset], svg title');
    for (let i = 0; i < named.length && i < 50; i++) {
      const n = named[i];
      const w = n.tagName === 'title' ? n.textContent
        : n.getAttribute('aria-label') || n.getAttribute('alt') || n.value || '';
      if (w && w.trim()) words.push(w.trim());
    }
    if (words.length) text += ' ' + words.join(' ');
  }
  const attrs = {};
  for (const n of names) attrs[n] = (el.getAttribute && el.getAttribute(n)) || '';
  return { connected: el.isConnected, tag: (el.tagName || '').toLowerCase(), text: text.slice(0, 400), attrs };
}
