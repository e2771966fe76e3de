function () {
  // Releases the selection a read made: the caret back where it was
  // when the focus was in the editor, else collapsed at the start.
  // Returns false when only a key can collapse it (CodeMirror 5 keeps
  // its own selection).
  const el = this;
  if (el.classList.contains('CodeMirror')) return false;
  const sel = getSelection();
  const c = globalThis.__waymarkDocCaret;
  globalThis.__waymarkDocCaret = null;
  if (c && c[0].isConnected && c[2].isConnected) {
    try { sel.setBaseAndExtent(c[0], c[1], c[2], c[3]); return true; } catch (e) { /* the nodes changed */ }
  }
  if (sel.rangeCount) sel.collapseToStart();
  return true;
}
