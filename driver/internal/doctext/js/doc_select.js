function () {
  // Selects what an editor that takes no focus (a read-only one) shows,
  // as a person's drag over it would, so that a copy takes it.
  const r = document.createRange();
  r.selectNodeContents(this);
  const sel = getSelection();
  sel.removeAllRanges();
  sel.addRange(r);
  return sel.toString().length;
}
