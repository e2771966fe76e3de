function (mode) {
  // Did pressing this (mode "click"), or Enter in it (mode "enter"), try
  // to send a form that the browser's own constraint validation stopped?
  // Returns the fields it found invalid, each with the browser's message,
  // or null. A blocked submit focuses the first invalid field it can and
  // leaves each invalid field :user-invalid (the spec sets every control's
  // user validity when a submit is attempted): those are the signs the
  // browser checked them, so a plain button, a form with novalidate, a
  // formnovalidate submitter or a page that stopped the click itself (the
  // focus stays on the button) claims nothing.
  const deepActive = () => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };
  let el = this;
  if (!el || el.nodeType !== 1) el = deepActive();
  if (!el || !el.closest) return null;
  const kind = (n) => [(n.tagName || '').toLowerCase(), (n.getAttribute('type') || '').toLowerCase()];
  const isSubmitter = (n) => {
    const [tag, type] = kind(n);
    return (tag === 'button' && (type === '' || type === 'submit')) || (tag === 'input' && (type === 'submit' || type === 'image'));
  };
  let form = null, submitter = null;
  if (mode === 'click') {
    const b = isSubmitter(el) ? el : el.closest('button');
    if (!b || !isSubmitter(b)) return null;
    form = b.form; submitter = b;
  } else if (mode === 'enter') {
    const [tag, type] = kind(el);
    if (isSubmitter(el)) { form = el.form; submitter = el; }
    else if (tag === 'input' && !['checkbox', 'radio', 'file', 'button', 'reset', 'hidden', 'range', 'color'].includes(type)) {
      form = el.form;
      submitter = form && Array.from(form.elements).find(isSubmitter);
    } else return null;
  }
  if (!form || form.noValidate || (submitter && submitter.formNoValidate)) return null;
  const shown = (f) => { try { return f.matches(':user-invalid'); } catch (e) { return true; } };
  const bad = Array.from(form.elements).filter((f) => f.willValidate && !f.validity.valid);
  if (!bad.length || !bad.some(shown)) return null;
  // The browser focused the first it could; when none can take the focus
  // (all hidden: Chromium logs "not focusable" and still stops the
  // submit), the marks alone tell.
  const rendered = (f) => f.getClientRects().length > 0;
  if (!bad.includes(deepActive()) && bad.some(rendered)) return null;
  const text = (n) => (n ? (n.innerText || n.textContent || '') : '').replace(/\s+/g, ' ').trim();
  const labelText = (l, f) => {
    // A label's words without the field's own (a <select> inside one
    // would add every option).
    const c = l.cloneNode(true);
    for (const x of c.querySelectorAll('input, select, textarea, button')) x.remove();
    return text(c);
  };
  const nameOf = (f) => {
    const ids = (f.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
    const by = ids.map((id) => text(f.ownerDocument.getElementById(id))).filter(Boolean).join(' ');
    if (by) return by;
    const aria = (f.getAttribute('aria-label') || '').trim();
    if (aria) return aria;
    const labels = Array.from(f.labels || []).map((l) => labelText(l, f)).filter(Boolean).join(' ');
    return labels || (f.getAttribute('placeholder') || f.getAttribute('title') || f.name || '').trim();
  };
  const roleOf = (f) => {
    const explicit = (f.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (explicit) return explicit;
    const [tag, type] = kind(f);
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return (f.multiple || f.size > 1) ? 'listbox' : 'combobox';
    switch (type) {
      case 'checkbox': case 'radio': return type;
      case 'number': return 'spinbutton';
      case 'range': return 'slider';
      case 'search': return 'searchbox';
      case 'file': return 'button';
    }
    return 'textbox';
  };
  // A required radio group is one question: its first button stands for it.
  const groups = new Set();
  const out = [];
  for (const f of bad) {
    if (kind(f)[1] === 'radio' && f.name) {
      if (groups.has(f.name)) continue;
      groups.add(f.name);
    }
    out.push({ role: roleOf(f), name: nameOf(f).slice(0, 80), message: f.validationMessage });
  }
  return out;
}
