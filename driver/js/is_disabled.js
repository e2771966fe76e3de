function () {
  // Disabled by the attribute, by a disabled fieldset around it (except in
  // its first legend), or by aria-disabled on it or an ancestor.
  const el = this;
  if (el.disabled === true) return true;
  const fs = el.closest && el.closest('fieldset[disabled]');
  if (fs) {
    const legend = fs.querySelector(':scope > legend');
    if (!legend || !legend.contains(el)) return true;
  }
  const aria = el.closest && el.closest('[aria-disabled="true"]');
  return !!aria;
}
