function (commit, mode, confusables) {
  // Would pressing this (mode "click"), or Enter or Space in it, send,
  // pay, delete or confirm? Returns why, the control's description and its
  // form's values; with any other mode (""), the description alone. The
  // words are folded as internal/fold does (NFKC, invisible characters
  // out, look-alike letters to Latin) before they are matched, so
  // "Pa&shy;y now" and a Cyrillic "Pаy now" read "Pay now".
  const el = this;
  const fold = (s) => Array.from(String(s || '').normalize('NFKC').replace(/[\p{Cf}\u034f\u180e\uFE00-\uFE0F]/gu, ''))
    .map((c) => confusables[c] || c).join('');
  const tag = (el.tagName || '').toLowerCase();
  const type = (el.getAttribute('type') || '').toLowerCase();
  const textOf = (n) => (n ? (n.innerText || n.textContent || '') : '');
  // Every source a name can come from: aria-labelledby, aria-label, the
  // text, the value, title, alt, and CSS generated content.
  const parts = [];
  for (const id of (el.getAttribute('aria-labelledby') || '').split(/\s+/)) {
    if (id) parts.push(textOf(el.ownerDocument.getElementById(id)));
  }
  parts.push(el.getAttribute('aria-label') || '');
  parts.push(el.innerText || '');
  if (tag === 'input' && ['submit', 'button', 'reset', 'image'].includes(type)) parts.push(el.value || '');
  parts.push(el.getAttribute('title') || '', el.getAttribute('alt') || '');
  for (const pseudo of ['::before', '::after']) {
    const c = getComputedStyle(el, pseudo).content;
    if (c && c !== 'none' && c !== 'normal') parts.push(c.replace(/^"|"$/g, ''));
  }
  const words = fold(parts.join(' ')).replace(/\s+/g, ' ').trim();
  const form = el.form || (el.closest && el.closest('form'));
  const submitter = (tag === 'button' && (type === '' || type === 'submit')) || (tag === 'input' && (type === 'submit' || type === 'image'));
  const re = new RegExp('(^|[^\\p{L}])(' + commit + ')([^\\p{L}]|$)', 'iu');
  let why = '';
  if (mode === 'enter' && form && tag === 'input' && !['checkbox', 'radio', 'file', 'button', 'reset', 'submit', 'image'].includes(type)) {
    why = 'Enter in a form field submits the form';
  } else if (mode === 'enter' || mode === 'space' || mode === 'click') {
    // Enter or Space on a button presses it.
    const presses = mode === 'click' || tag === 'button' || (tag === 'input' && ['submit', 'button', 'image', 'reset'].includes(type)) || el.getAttribute('role') === 'button';
    if (presses && submitter && form) why = (mode === 'click' ? '' : (mode === 'enter' ? 'Enter on it ' : 'Space on it ')) + 'submits the form';
    else if (presses && re.test(words)) why = 'its words commit: "' + words.slice(0, 60) + '"';
  }
  // The control as the page shows it: how every approval names it (the
  // driver asks for it alone with mode "", for a send held at sending).
  const control = tag + (type ? '[type=' + type + ']' : '') + (words ? ' "' + words.slice(0, 60) + '"' : '');
  if (!why) return { why: '', control };
  const values = {};
  // What the driver needs to tell a secret field by secret.Field, and the
  // fields a secret was typed into (secret.go), whose values it masks.
  const fields = {};
  const marked = globalThis.__waymarkSecrets;
  if (form) {
    for (const f of form.elements) {
      // What the form would send: named fields only (a fieldset is in
      // form.elements too, and has no value).
      const tagName = (f.tagName || '').toLowerCase();
      if (!['input', 'select', 'textarea'].includes(tagName)) continue;
      const name = f.name;
      if (!name || f.disabled) continue;
      const ft = (f.type || '').toLowerCase();
      if (['submit', 'button', 'reset', 'image'].includes(ft)) continue;
      const label = Array.from(f.labels || []).map(l => l.innerText).join(' ');
      (fields[name] = fields[name] || []).push({ type: ft, autocomplete: f.getAttribute('autocomplete') || '', words: [label, f.getAttribute('aria-label') || '', name, f.id, f.placeholder || ''].join(' '), marked: !!(marked && marked.has(f)) });
      if (ft === 'checkbox' || ft === 'radio') { if (f.checked) values[name] = (values[name] ? values[name] + ',' : '') + f.value; else if (!(name in values)) values[name] = ''; }
      else if (ft === 'file') values[name] = Array.from(f.files || []).map(x => x.name).join(',');
      else if (f.tagName.toLowerCase() === 'select') values[name] = Array.from(f.selectedOptions).map(o => o.value).join(',');
      else values[name] = String(f.value);
    }
  }
  // Where the press sends the form (the control's formaction and
  // formmethod win over the form's), and the fields the person cannot
  // change on the page (hidden, readonly): what was approved is also
  // where the form goes and what it carries unseen.
  let target = '';
  const fixed = [];
  if (form) {
    let by = submitter ? el : null;
    if (!by) by = form.querySelector('button:not([type]), button[type=submit], input[type=submit], input[type=image]');
    const method = String((by && by.hasAttribute('formmethod') ? by.formMethod : form.method) || 'get').toUpperCase();
    const action = (by && by.hasAttribute('formaction')) ? by.formAction : form.action;
    target = method + ' ' + action;
    for (const f of form.elements) {
      const ft = (f.type || '').toLowerCase();
      if (f.name && !f.disabled && (ft === 'hidden' || f.readOnly) && !fixed.includes(f.name)) fixed.push(f.name);
    }
  }
  return { why, control, form: values, fields, target, fixed };
}
