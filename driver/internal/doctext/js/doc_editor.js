function () {
  // The document editor: the editing host of a rich-text editor (Quill,
  // ProseMirror, CodeMirror 6, any contenteditable) or a CodeMirror 5
  // frame. Called on an element the caller named, the editor at or in
  // it; called on the document, the focused editor, else the largest one
  // shown. Returns the element, or null.
  const kinds = '.CodeMirror, .ql-editor, .ProseMirror, .cm-content, [contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]';
  const hostOf = el => {
    const cm = el.closest('.CodeMirror');
    if (cm) return cm;
    const known = el.closest('.ql-editor, .ProseMirror, .cm-content');
    if (known) return known;
    if (!el.isContentEditable) return null;
    let top = el;
    while (top.parentElement && top.parentElement.isContentEditable) top = top.parentElement;
    return top;
  };
  const area = el => { const r = el.getBoundingClientRect(); return r.width * r.height; };
  const scope = this && this.nodeType === 1 ? this : null;
  if (scope) {
    const h = hostOf(scope);
    if (h) return h;
  } else {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    if (a && a !== document.body) {
      const h = hostOf(a);
      if (h) return h;
    }
  }
  const seen = new Set();
  let best = null;
  for (const el of (scope || document).querySelectorAll(kinds)) {
    const h = hostOf(el);
    if (!h || seen.has(h) || (scope && !scope.contains(h))) continue;
    seen.add(h);
    if (area(h) > 0 && (!best || area(h) > area(best))) best = h;
  }
  return best;
}
