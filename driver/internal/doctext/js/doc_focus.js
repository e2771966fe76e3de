function () {
  // Puts the focus in the editor, as a click on it would, and keeps
  // where its caret was so that it can be put back (doc_release.js):
  // kept in our isolated world, unseen by the page.
  const el = this;
  const sel = getSelection();
  globalThis.__waymarkDocCaret = null;
  if (sel.rangeCount && el.contains(sel.anchorNode) && el.contains(sel.focusNode)) {
    globalThis.__waymarkDocCaret = [sel.anchorNode, sel.anchorOffset, sel.focusNode, sel.focusOffset];
  }
  const target = el.classList.contains('CodeMirror') ? el.querySelector('textarea') : el;
  if (!target) return false;
  if (document.activeElement !== target && !el.contains(document.activeElement)) target.focus({ preventScroll: true });
  return el.contains(document.activeElement) || document.activeElement === el;
}
