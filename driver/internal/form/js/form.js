(() => {
  // The form ledger's reader (driver/form.go), run in our isolated world
  // of one frame: it reads the fields of the frame's document and its
  // open shadow roots as a person sees them. It never changes the page.
  const clean = s => (s || '').replace(/\s+/g, ' ').trim();
  const lower = s => clean(s).toLowerCase();
  const slug = s => lower(s).normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 48);
  const attr = (el, a) => (el.getAttribute && el.getAttribute(a)) || '';
  const role = el => lower(attr(el, 'role'));
  const visible = el => {
    if (!el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    return true;
  };
  const byId = (el, id) => {
    const root = el.getRootNode();
    return (root.getElementById && root.getElementById(id)) || document.getElementById(id);
  };
  const controls = 'input, select, textarea, option, [contenteditable], [role=listbox], [role=combobox], [role=option]';
  // ownText is an element's words without those of controls inside it
  // (a label wrapping a select would else read as all its options).
  const ownText = el => {
    if (!el) return '';
    let out = '';
    const walk = n => {
      for (const c of n.childNodes) {
        if (c.nodeType === 3) out += c.nodeValue + ' ';
        else if (c.nodeType === 1 && !c.matches(controls) && !isError(c) && !c.hidden) walk(c);
      }
    };
    walk(el);
    return clean(out);
  };
  const errorRE = /(^|[\s_-])(error|errors|invalid|invalid-feedback|field-error|help-block-error)([\s_-]|$)/i;
  const isError = el => el.nodeType === 1 && (role(el) === 'alert' || errorRE.test(attr(el, 'class')) || el.hasAttribute('data-error'));
  const labelled = el => {
    const ids = attr(el, 'aria-labelledby').split(/\s+/).filter(Boolean);
    return clean(ids.map(id => ownText(byId(el, id))).join(' '));
  };
  const headings = 'h1,h2,h3,h4,h5,h6,[role=heading]';
  // labelOf is the field's name as a person reads it.
  const labelOf = (el, group) => {
    let l = labelled(el);
    if (!l && el.labels && el.labels.length) l = ownText(el.labels[0]);
    if (!l) l = clean(attr(el, 'aria-label'));
    if (!l && group) l = group;
    if (!l) {
      const wrap = el.closest('label');
      if (wrap) l = ownText(wrap);
    }
    // The title and placeholder name the field as the outline does (the
    // browser's accessible name), before any caption is guessed.
    if (!l) l = clean(attr(el, 'title') || attr(el, 'placeholder'));
    if (!l) {
      // A caption just before the field or its wrapper: <div>Company</div><div role=combobox>.
      // A heading is the form's or section's title, not the field's.
      for (let n = el, i = 0; n && i < 3 && !l; n = n.parentElement, i++) {
        const p = n.previousElementSibling;
        if (p && !p.matches(controls) && !p.querySelector(controls) && !p.matches(headings) && !p.querySelector(headings)) {
          const t = ownText(p);
          if (t && t.length <= 80) l = t;
        }
      }
    }
    if (!l) l = clean(attr(el, 'name'));
    return l;
  };
  const dateFormatRE = /^(dd|mm|yyyy|yy|d|m)([\/.\- ])(dd|mm|yyyy|yy|d|m)\2(dd|mm|yyyy|yy)$/i;
  const dateFormatOf = el => {
    for (const v of [attr(el, 'data-format'), attr(el, 'data-date-format'), attr(el, 'placeholder')]) {
      const s = clean(v);
      if (dateFormatRE.test(s)) return s.toUpperCase();
    }
    return '';
  };
  const optionText = o => clean(o.label || o.textContent);
  const listOf = el => {
    const ids = (attr(el, 'aria-controls') + ' ' + attr(el, 'aria-owns')).split(/\s+/).filter(Boolean);
    for (const id of ids) {
      const l = byId(el, id);
      if (l) return l;
    }
    return null;
  };
  const optionsIn = (list, onlyVisible) => list ? Array.from(list.querySelectorAll('[role=option], li, option')).filter(o => !onlyVisible || visible(o)) : [];
  // An "Add another …" control, in the languages pages are written in:
  // its verb first ("Add a position", "+ Add vessel", "Ajouter un
  // navire") or last ("Weitere Station hinzufügen"); never a cart's.
  const adderRE = /^\+?\s*(add|ajouter|añadir|agregar|aggiungi|adicionar|acrescentar|dodaj|lägg till|tilføj|legg til)(?![\p{L}])|(hinzufügen|toevoegen)\s*$/iu;
  const notAdderRE = /\b(to|in)\s+(the\s+)?(cart|basket|bag|wishlist|wish list|favou?rites|calendar)\b|warenkorb|panier|carrito|carrello|winkelwagen/i;
  const moreRE = /\b(another|more|other)\b|weitere|un(e)? autre|otr[oa]|altr[oa]|outr[oa]|nog een|en till|endnu en|en til/i;
  // adderNoun is what an adder adds: "Add another vessel" → "vessel".
  const adderNoun = w => clean(w.replace(/^\+\s*/, '')
    .replace(/^(add|ajouter|añadir|agregar|aggiungi|adicionar|acrescentar|dodaj|lägg till|tilføj|legg til)\s*/iu, '')
    .replace(/\s*(hinzufügen|toevoegen)\s*$/iu, '')
    .replace(/^(another|more|one more|a|an|new|other|un autre|une autre|un|une|otro|otra|un altro|un'altra|un|una|outro|outra|nog een|weitere[nrs]?|eine[nr]?|ein)\s+/iu, ''));

  // kindOf says what kind of field el is, or '' for none.
  const kindOf = el => {
    const tag = el.tagName.toLowerCase();
    const r = role(el);
    if (tag === 'input') {
      const type = lower(el.type);
      if (['hidden', 'submit', 'button', 'reset', 'image'].includes(type)) return '';
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (type === 'file') return 'file';
      if (type === 'range') return 'slider';
      if (['date', 'time', 'month', 'week', 'datetime-local'].includes(type)) return 'date';
      if (r === 'combobox' || ['list', 'both'].includes(lower(attr(el, 'aria-autocomplete'))) || el.list) return 'typeahead';
      if (dateFormatOf(el) || el.hasAttribute('data-datepicker')) return 'date';
      // A read-only field that opens a calendar.
      if (['dialog', 'grid', 'true'].includes(lower(attr(el, 'aria-haspopup'))) && /date|day/i.test(labelOf(el))) return 'date';
      return 'text';
    }
    if (tag === 'select') return 'select';
    if (tag === 'textarea') return 'textarea';
    if (el.isContentEditable) return el.parentElement && el.parentElement.isContentEditable ? '' : 'richtext';
    if (r === 'combobox' || lower(attr(el, 'aria-haspopup')) === 'listbox') return 'combobox';
    if (r === 'slider') return 'slider';
    if (r === 'checkbox' || r === 'switch') return 'checkbox';
    if (r === 'radio') return 'radio';
    if (el.hasAttribute('data-dropzone') || /(^|\s)drop-?zone(\s|$)/i.test(attr(el, 'class'))) return 'file';
    return '';
  };
  const candidates = 'input, select, textarea, [contenteditable], [role=combobox], [aria-haspopup=listbox], [role=slider], [role=checkbox], [role=switch], [role=radio], [data-dropzone], .dropzone, .drop-zone';

  // valueOf is what the field holds, as a person reads it.
  const valueOf = (el, kind, opts) => {
    const tag = el.tagName.toLowerCase();
    switch (kind) {
      case 'checkbox':
        return String(tag === 'input' ? el.checked : attr(el, 'aria-checked') === 'true');
      case 'radio': {
        const on = (opts || []).find(o => o.tagName.toLowerCase() === 'input' ? o.checked : attr(o, 'aria-checked') === 'true');
        return on ? labelOf(on) : '';
      }
      case 'select':
        return Array.from(el.selectedOptions).filter(o => o.value !== '').map(optionText).join(', ');
      case 'file': {
        const input = tag === 'input' ? el : el.querySelector('input[type=file]');
        if (input && input.files && input.files.length) return Array.from(input.files).map(f => f.name).join(', ');
        const shown = el.querySelector('[data-files], .files, .file-name, .dz-filename');
        return shown ? clean(shown.textContent) : '';
      }
      case 'richtext':
        return clean(el.innerText);
      case 'slider':
        return tag === 'input' ? el.value : (attr(el, 'aria-valuenow') || clean(attr(el, 'aria-valuetext')));
      case 'combobox': {
        if ('value' in el && tag === 'input') return el.value;
        const input = el.querySelector('input');
        if (input) return input.value;
        return clean(attr(el, 'aria-valuetext')) || ownText(el);
      }
    }
    return 'value' in el ? el.value : clean(el.textContent);
  };
  // errorOf is what the page says is wrong with the field.
  const errorOf = (el, kind) => {
    const texts = [];
    const add = n => { const t = n && clean(n.textContent); if (t && !texts.includes(t)) texts.push(t); };
    const em = attr(el, 'aria-errormessage');
    if (em) add(byId(el, em));
    for (const id of attr(el, 'aria-describedby').split(/\s+/).filter(Boolean)) {
      const d = byId(el, id);
      if (d && visible(d) && (isError(d) || attr(el, 'aria-invalid') === 'true')) add(d);
    }
    // An error shown beside the field: in its wrapper, not holding other fields.
    const host = (el.labels && el.labels[0] && el.labels[0].contains(el)) ? el.labels[0].parentElement : el.parentElement;
    for (const box of [host, host && host.parentElement]) {
      if (!box || texts.length) break;
      if (box.querySelectorAll('input, select, textarea, [contenteditable], [role=combobox], [role=slider]').length > 3) break;
      for (const e of box.querySelectorAll('[role=alert], .error, .errors, .invalid-feedback, .field-error, [data-error]')) {
        if (visible(e) && !e.contains(el)) add(e);
      }
    }
    const invalid = attr(el, 'aria-invalid') === 'true' || (el.matches && safeMatches(el, ':user-invalid'));
    if (!texts.length && invalid && el.validationMessage) texts.push(el.validationMessage);
    if (!texts.length && attr(el, 'aria-invalid') === 'true') texts.push('marked invalid');
    return texts.join(' ');
  };
  const safeMatches = (el, sel) => { try { return el.matches(sel); } catch (e) { return false; } };

  // sectionOf is the part of the form that holds el, with its title.
  const sectionOf = el => {
    const s = el.closest('fieldset, [role=group], section, [data-section]');
    if (!s) return null;
    let title = '';
    const legend = s.querySelector(':scope > legend');
    if (legend) title = ownText(legend);
    if (!title) title = labelled(s) || clean(attr(s, 'aria-label')) || clean(attr(s, 'data-section'));
    if (!title) {
      const h = s.querySelector('h1, h2, h3, h4, h5, h6');
      if (h) title = clean(h.textContent);
    }
    return { el: s, title };
  };
  // A repeated section's title without its number: "Experience 2" → "experience".
  const baseTitle = t => lower(t).replace(/#?\s*\d+\s*$/, '').replace(/^\d+\.?\s*/, '').replace(/\(.*\)$/, '').trim();

  // copiesBy finds the copies an adder adds to, by where it stands: the
  // nearest box around it that holds fields (never the whole form), and
  // in it the run of like boxes (same tag, class and field labels) before
  // it; a box of single fields with different labels is itself the one
  // copy. The copies are named by their titled sections (base), else by
  // the heading over them, else by what the adder says it adds.
  const copiesBy = (btn, fields, byBase) => {
    const holds = box => fields.filter(f => box.contains(f.el));
    let box = btn.parentElement;
    for (let i = 0; box && i < 4 && !holds(box).length; i++) box = box.parentElement;
    if (box && box.matches('form, body, html, main')) {
      // The adder stands in the form itself, right after the copies'
      // box (<div id=copies>…</div><button>Add another</button>): that
      // box, the element just before it, is the one it adds to.
      let own = btn;
      while (own.parentElement && own.parentElement !== box) own = own.parentElement;
      const prev = own.previousElementSibling;
      box = prev && holds(prev).length > 1 && !prev.matches(controls) ? prev : null;
    }
    if (!box || box.matches('form, body, html, main') || !holds(box).length) return null;
    const sig = c => c.tagName + '|' + attr(c, 'class') + '|' + holds(c).map(f => f.kind + ':' + slug(f.label).replace(/_?\d+$/, '')).join(',');
    const kids = Array.from(box.children).filter(c => !c.contains(btn) && holds(c).length);
    if (!kids.length) return null;
    const before = kids.filter(c => c.compareDocumentPosition(btn) & Node.DOCUMENT_POSITION_FOLLOWING);
    const last = sig((before.length ? before : kids).slice(-1)[0]);
    let copies = kids.filter(c => sig(c) === last);
    // A wrapper around the copies (<div id=list>) is not one: look inside.
    for (let i = 0; copies.length === 1 && i < 3; i++) {
      const inner = Array.from(copies[0].children).filter(c => holds(c).length);
      const one = inner.length && inner.every(c => sig(c) === sig(inner[0]));
      if (!one || (inner.length === 1 && holds(inner[0]).length < 2)) break;
      copies = inner;
    }
    if (copies.length === 1 && kids.length > 1 && kids.every(c => holds(c).length === 1)) copies = [box];
    // Copies that are titled sections ("Experience 1") keep their titles.
    const secs = copies.map(c => { const f = holds(c)[0]; return f.sectionEl && (c.contains(f.sectionEl.el) || f.sectionEl.el === c) ? baseTitle(f.sectionEl.title) : ''; });
    const n = holds(copies[0]).length;
    if (secs[0] && secs.every(b => b === secs[0]) && byBase.has(secs[0])) return { base: secs[0], copies, n };
    let title = '';
    const first = copies[0];
    for (const h of box.querySelectorAll(headings + ', legend')) {
      if (copies.some(c => c.contains(h))) continue;
      if (h.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) title = clean(h.textContent);
    }
    for (let n = box, i = 0; !title && n && i < 2; n = n.parentElement, i++) {
      const p = n.previousElementSibling;
      if (p && (p.matches(headings) || p.matches('legend'))) title = clean(p.textContent);
      else if (p && p.querySelector(controls)) break;
    }
    if (!title && box !== first) title = clean(attr(box, 'aria-label')) || labelled(box);
    if (!title) title = adderNoun(clean(btn.textContent || btn.value) || attr(btn, 'aria-label'));
    return { title, copies, n };
  };

  // scan reads the frame; names are the attributes that say which control
  // an element is (refs.go identityAttrs), returned for each field.
  const scan = (names) => {
    const nodes = [];
    const index = n => { nodes.push(n); return nodes.length - 1; };
    const fields = [];
    const taken = new Set();
    const groups = new Map(); // radio group → field
    const ids = new WeakMap();
    const idOf = n => { if (!ids.has(n)) ids.set(n, ++idSeq); return ids.get(n); };
    let idSeq = 0;
    const sections = new Map(); // section element → {title}
    const adders = [];
    const marked = globalThis.__waymarkSecrets;
    const visit = root => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) visit(el.shadowRoot);
        if (taken.has(el)) continue;
        const tag = el.tagName.toLowerCase();
        const link = tag === 'a' && !/^(#|javascript:|$)/i.test(attr(el, 'href').trim()) ? false : tag === 'a';
        if ((tag === 'button' || link || role(el) === 'button' || (tag === 'input' && lower(el.type) === 'button')) && lower(attr(el, 'aria-haspopup')) !== 'listbox') {
          // An icon ("+") is named by its aria-label or title.
          let words = clean(el.textContent || el.value);
          if (!/\p{L}/u.test(words)) words = clean(attr(el, 'aria-label') || attr(el, 'title')) || words;
          // A control that would send its form still marks its section as
          // repeating, but filling never presses it (driver/form_fill.go).
          const submits = tag === 'button' && lower(el.type) === 'submit' && !!el.form;
          // A hidden one still says where the copies are (a page that
          // allows no more hides its adder), but is not pressed.
          if (adderRE.test(words) && !notAdderRE.test(words) && words.length < 60) adders.push({ node: index(el), words, submits, el, shown: visible(el) });
          continue;
        }
        if (!el.matches(candidates)) continue;
        let kind = kindOf(el);
        if (!kind) continue;
        let field = el;
        let input = -1;
        if (kind === 'file' && tag === 'input' && !visible(el)) {
          // A hidden file input: its drop zone (or label) is the field.
          const zone = el.closest('[data-dropzone], .dropzone, .drop-zone, label') || el.parentElement;
          if (!zone || !visible(zone) || taken.has(zone)) continue;
          field = zone;
          input = index(el);
          taken.add(zone);
        } else if (kind === 'file' && tag !== 'input') {
          const inner = el.querySelector('input[type=file]');
          if (inner) { taken.add(inner); input = index(inner); }
        } else if (!visible(el) && !(['checkbox', 'radio'].includes(kind) && el.parentElement && visible(el.parentElement))) {
          continue;
        }
        if (kind === 'combobox') {
          // A combobox that wraps its text box is a typeahead on that box.
          const box = el.querySelector('input');
          if (box) { taken.add(el); continue; }
        }
        if (kind === 'typeahead') {
          const wrap = el.closest('[role=combobox]');
          if (wrap && wrap !== el) taken.add(wrap);
        }
        if (kind === 'richtext') for (const d of el.querySelectorAll('*')) taken.add(d);
        const sec = sectionOf(field);
        let opts = null;
        if (kind === 'radio') {
          const name = tag === 'input' ? attr(el, 'name') : '';
          const rg = el.closest('[role=radiogroup]');
          const gid = rg ? 'rg' + idOf(rg) : name ? 'n' + idOf(el.form || el.getRootNode()) + ':' + (sec ? idOf(sec.el) : '') + ':' + name : 'el' + idOf(el);
          let g = groups.get(gid);
          if (g) {
            g.optEls.push(el);
            g.optNodes.push(index(el));
            g.options.push(labelOf(el));
            g.required = g.required || !!el.required;
            continue;
          }
          const fs = rg || el.closest('fieldset');
          const groupLabel = fs ? (fs.matches('fieldset') ? ownText(fs.querySelector(':scope > legend')) : (labelled(fs) || clean(attr(fs, 'aria-label')))) : '';
          const at = index(el);
          g = {
            kind, node: at, optEls: [el], optNodes: [at], options: [labelOf(el)], el,
            label: groupLabel || clean(name), name, required: !!el.required || attr(fs || el, 'aria-required') === 'true',
            sectionEl: sec && fs && sec.el === fs ? sectionOf(fs.parentElement || fs) : sec,
          };
          groups.set(gid, g);
          fields.push(g);
          continue;
        }
        let label = labelOf(field);
        let required = !!el.required || attr(field, 'aria-required') === 'true' || attr(el, 'aria-required') === 'true';
        if (/\*\s*$/.test(label)) { required = true; }
        label = label.replace(/\s*[*:]+\s*$/, '').replace(/\s*\(required\)\s*$/i, '');
        const f = {
          kind, node: index(field), input, label, name: attr(el, 'name'), required,
          type: lower(attr(el, 'type')), autocomplete: attr(el, 'autocomplete'), placeholder: attr(el, 'placeholder'),
          disabled: !!el.disabled || attr(field, 'aria-disabled') === 'true',
          marked: !!(marked && marked.has(el)), el: field, sectionEl: sec,
        };
        if (kind === 'date') f.format = dateFormatOf(el);
        if (kind === 'select') { f.options = Array.from(el.options).filter(o => o.value !== '').map(optionText).filter(Boolean); f.multiple = el.multiple; }
        if (kind === 'combobox') f.options = optionsIn(listOf(field), false).map(optionText).filter(Boolean);
        if (kind === 'typeahead' && el.list) f.options = Array.from(el.list.options).map(o => o.value);
        if (kind === 'slider') {
          const mn = tag === 'input' ? el.min : attr(el, 'aria-valuemin');
          const mx = tag === 'input' ? el.max : attr(el, 'aria-valuemax');
          f.format = (mn || '0') + '..' + (mx || '100') + (tag === 'input' && el.step && el.step !== '1' ? ' step ' + el.step : '');
        }
        fields.push(f);
      }
    };
    visit(document);
    // Sections a page repeats: same title but for a number, or one an
    // "Add another" button adds copies of.
    const secs = [];
    for (const f of fields) if (f.sectionEl && f.sectionEl.title && !secs.includes(f.sectionEl.el)) { secs.push(f.sectionEl.el); sections.set(f.sectionEl.el, f.sectionEl); }
    const byBase = new Map();
    for (const s of secs) {
      const b = baseTitle(sections.get(s).title);
      if (!b) continue;
      if (!byBase.has(b)) byBase.set(b, []);
      byBase.get(b).push(s);
    }
    const outAdders = [];
    for (const a of adders) {
      const words = lower(a.words);
      let found = '';
      // The section it names ("Add another experience").
      for (const b of byBase.keys()) if (words.includes(b) || words.includes(b.replace(/s$/, ''))) found = b;
      // Else the copies it stands beside (js below: copiesBy).
      const g = found ? null : copiesBy(a.el, fields, byBase);
      if (g && g.base) found = g.base;
      if (found) {
        outAdders.push({ section: slug(found), node: a.node, words: a.words, submits: a.submits, hidden: !a.shown });
      } else if (g) {
        // Never a guess: one box of one field beside an "Add" (a coupon, a
        // to-do) is no section; an adder that says "another" or "more",
        // or copies already shown twice, or a box of several fields is.
        if (g.copies.length < 2 && !moreRE.test(a.words) && g.n < 2) continue;
        const name = slug(baseTitle(g.title));
        if (!name) continue;
        g.copies.forEach((c, i) => { for (const f of fields) if (c.contains(f.el) && !f.copy) f.copy = name + '[' + (i + 1) + '].'; });
        outAdders.push({ section: name, node: a.node, words: a.words, submits: a.submits, hidden: !a.shown });
      }
    }
    const repeated = new Set();
    for (const [b, list] of byBase) if (list.length > 1 || outAdders.some(a => a.section === slug(b))) repeated.add(b);
    // Keys: the label's words; with the copy of a repeated section; with
    // the section's name when two fields would share one.
    const out = [];
    for (const f of fields) {
      let base = slug(f.label) || slug(f.name) || f.kind;
      let section = '';
      let prefix = '';
      if (f.sectionEl && f.sectionEl.title) {
        section = f.sectionEl.title;
        const b = baseTitle(section);
        if (repeated.has(b)) prefix = slug(b) + '[' + (byBase.get(b).indexOf(f.sectionEl.el) + 1) + '].';
      }
      if (f.copy) prefix = f.copy;
      f.key = prefix + base;
      f.secSlug = slug(section);
      f.section = section;
      out.push(f);
    }
    const count = new Map();
    for (const f of out) count.set(f.key, (count.get(f.key) || 0) + 1);
    for (const f of out) if (count.get(f.key) > 1 && f.secSlug && !f.key.includes('[')) f.key = f.secSlug + '.' + f.key;
    const rows = out.map(f => {
      const value = valueOf(f.el, f.kind, f.optEls);
      return {
        key: f.key, label: f.label, kind: f.kind, node: f.node, input: f.input ?? -1, opt_nodes: f.optNodes || [],
        options: f.options || [], required: !!f.required, value, format: f.format || '', error: errorOf(f.el, f.kind),
        section: f.section, disabled: !!f.disabled, marked: !!f.marked, multiple: !!f.multiple,
        words: clean([f.label, f.name, attr(f.el, 'id'), f.placeholder].join(' ')), type: f.type || '', autocomplete: f.autocomplete || '',
        readonly: !!f.el.readOnly, tag: f.el.tagName.toLowerCase(), attrs: Object.fromEntries((names || []).map(n => [n, attr(f.el, n)])),
      };
    });
    return [JSON.stringify({ url: location.href, title: document.title, fields: rows, adders: outAdders }), ...nodes];
  };
  return { scan, valueOf, errorOf, labelOf, optionsIn, listOf, visible, optionText, clean };
})()
