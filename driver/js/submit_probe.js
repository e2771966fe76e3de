function (commit, isEnter) {
  // Would pressing this (or Enter in it) send, pay, delete or confirm?
  // Returns why, the control's description and its form's values.
  const el = this;
  const tag = (el.tagName || '').toLowerCase();
  const type = (el.getAttribute('type') || '').toLowerCase();
  const words = ((el.getAttribute('aria-label') || '') + ' ' + (el.innerText || el.value || '') + ' ' + (el.getAttribute('title') || '')).replace(/\s+/g, ' ').trim();
  const form = el.form || (el.closest && el.closest('form'));
  let why = '';
  if (isEnter) {
    if (form && tag === 'input' && !['checkbox', 'radio', 'file', 'button', 'reset'].includes(type)) why = 'Enter in a form field submits the form';
  } else {
    const submitter = (tag === 'button' && (type === '' || type === 'submit')) || (tag === 'input' && (type === 'submit' || type === 'image'));
    if (submitter && form) why = 'submits the form';
    else {
      const re = new RegExp('(^|[^\\p{L}])(' + commit + ')([^\\p{L}]|$)', 'iu');
      if (re.test(words)) why = 'its words commit: "' + words.slice(0, 60) + '"';
    }
  }
  if (!why) return { why: '' };
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
  return { why, control: (tag + (type ? '[type=' + type + ']' : '') + (words ? ' "' + words.slice(0, 60) + '"' : '')), form: values, fields };
}
