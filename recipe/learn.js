// Finds the rows a model gave in the page: arg is {fields: [{name, type}],
// rows: [{name: value}]}. Returns the container, the row tag, and for each
// field the ways it could be read, each with what it reads in every given
// row, for the caller to choose from (it judges which names are stable).
const nums = (t) => {
  const out = [];
  for (const tok of t.match(/-?\d[\d.,'\u00a0\u202f ]*/g) || []) {
    const s = tok.replace(/[\s\u00a0\u202f']/g, '').replace(/[.,]$/, '');
    out.push(Number(s.replace(/,/g, '')), Number(s.replace(/\./g, '').replace(',', '.')));
  }
  return out.filter((n) => !Number.isNaN(n));
};
const all = Array.from(DOC.body.querySelectorAll('*')).filter((e) => !['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(e.tagName));
const texts = new Map(all.map((e) => [e, text(e)]));
const matchesOf = (f, want) => {
  let hits;
  if (typeof want === 'number') hits = all.filter((e) => { const t = texts.get(e); return t.length < 80 && nums(t).some((n) => Math.abs(n - want) < 1e-9); });
  else hits = all.filter((e) => texts.get(e) === norm(want));
  const set = new Set(hits);
  // The deepest: an element none of whose descendants also matches.
  return hits.filter((e) => !Array.from(e.querySelectorAll('*')).some((d) => set.has(d)));
};
const depth = (e) => { let d = 0; for (; e; e = e.parentElement) d++; return d; };
const present = (v) => v !== null && v !== undefined && v !== '';
const matches = arg.rows.map((row) => {
  const m = {};
  // A yes/no is written in words of the page's own ("In stock"), found
  // once the rows are: not looked for.
  for (const f of arg.fields) if (present(row[f.name]) && f.type !== 'boolean') m[f.name] = matchesOf(f, row[f.name]);
  return m;
});
// The element of each row: the deepest holding a match of every field.
const used = new Set();
const rowTops = [];
for (let i = 0; i < arg.rows.length; i++) {
  const m = matches[i];
  const names = Object.keys(m);
  if (names.length === 0) return { error: `row ${i + 1} has no value to look for` };
  const missing = names.find((n) => m[n].length === 0);
  if (missing) return { error: `row ${i + 1}: the value of ${missing} (${JSON.stringify(arg.rows[i][missing])}) is not on the page as written` };
  names.sort((a, b) => m[a].length - m[b].length);
  const cands = [];
  for (const start of m[names[0]]) {
    for (let a = start; a && a !== DOC.body; a = a.parentElement) {
      if (names.every((n) => m[n].some((x) => a.contains(x)))) { cands.push(a); break; }
    }
  }
  cands.sort((a, b) => depth(b) - depth(a));
  const top = cands.find((c) => !used.has(c));
  if (!top) return { error: `row ${i + 1}: no element holds all its values` };
  used.add(top);
  rowTops.push(top);
}
// The container: the lowest common ancestor of the rows; with one row,
// the first ancestor whose children repeat its tag.
let container;
if (rowTops.length === 1) {
  let e = rowTops[0];
  while (e.parentElement && e.parentElement !== DOC.documentElement &&
    Array.from(e.parentElement.children).filter((c) => c.tagName === e.tagName).length < 2) e = e.parentElement;
  container = e.parentElement;
} else {
  container = rowTops[0].parentElement;
  while (container && !rowTops.every((t) => container.contains(t))) container = container.parentElement;
}
if (!container) return { error: 'the rows have no common container' };
const rowEls = rowTops.map((t) => { let e = t; while (e.parentElement !== container) e = e.parentElement; return e; });
if (new Set(rowEls).size !== rowEls.length) return { error: 'two rows the model gave are in one element of the page' };
const tag = rowEls[0].tagName;
if (!rowEls.every((e) => e.tagName === tag)) return { error: 'the rows are not elements of one kind' };
// Ways to find the container again.
const stableAttrs = ['data-testid', 'data-test', 'data-qa', 'itemprop', 'itemtype', 'aria-label', 'role', 'name', 'data-field', 'data-name'];
const q = (s) => '"' + String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
const step = (e) => {
  const t = e.tagName.toLowerCase();
  const same = Array.from(e.parentElement.children).filter((c) => c.tagName === e.tagName);
  return same.length > 1 ? `${t}:nth-of-type(${same.indexOf(e) + 1})` : t;
};
const pathFrom = (anc, e) => { const s = []; for (; e && e !== anc; e = e.parentElement) s.unshift(step(e)); return s.join(' > '); };
const containers = [];
const addC = (select, by, names) => { try { if (DOC.querySelector(select) === container) containers.push({ select, by, names }); } catch (e) { /* not a selector */ } };
const ctag = container.tagName.toLowerCase();
if (container.id) addC('#' + CSS.escape(container.id), 'attr', [container.id]);
for (const a of stableAttrs) if (container.hasAttribute(a)) addC(`${ctag}[${a}=${q(container.getAttribute(a))}]`, 'attr', [container.getAttribute(a)]);
for (const c of container.classList) addC(`${ctag}.${CSS.escape(c)}`, 'attr', [c]);
for (let a = container.parentElement; a && a !== DOC.documentElement; a = a.parentElement) {
  if (a.id) { addC(`#${CSS.escape(a.id)} > ${pathFrom(a, container)}`, 'tag', [a.id]); break; }
}
addC('body > ' + pathFrom(DOC.body, container), 'tag', []);
// waysOf lists the ways to read el within row, the most stable first.
const roles = ['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'A', 'BUTTON', 'TIME', 'IMG'];
function waysOf(row, el) {
  const cands = [];
  const add = (c, names) => { c.names = names; cands.push(c); };
  if (row.tagName === 'TR') {
    const cell = el.closest('td,th');
    if (cell && cell.parentElement === row) {
      const hs = headers(row);
      const h = hs[cell.cellIndex];
      if (h && hs.filter((x) => x === h).length === 1) add({ by: 'header', header: h }, []);
    }
  }
  for (let a = el; a && a !== row; a = a.parentElement) {
    const t = a.tagName.toLowerCase();
    for (const at of stableAttrs) if (a.hasAttribute(at) && at !== 'role') add({ by: 'attr', select: `${t}[${at}=${q(a.getAttribute(at))}]` }, [a.getAttribute(at)]);
    for (const c of a.classList) add({ by: 'attr', select: `${t}.${CSS.escape(c)}` }, [c]);
  }
  let topEl = el;
  while (topEl.parentElement && topEl.parentElement !== row && text(topEl.parentElement) === text(el)) topEl = topEl.parentElement;
  const prev = el === row ? null : topEl.previousElementSibling;
  if (prev && prev.children.length === 0) {
    const l = text(prev).replace(/:$/, '');
    if (l && l.length <= 40) add({ by: 'label', label: l }, []);
  }
  for (let a = el; a && a !== row; a = a.parentElement) if (roles.includes(a.tagName)) add({ by: 'role', select: a.tagName.toLowerCase() }, []);
  add({ by: 'tag', select: el === row ? '' : ':scope > ' + pathFrom(row, el) }, []);
  return cands;
}
// Attributes a yes/no may be written in rather than in words: a class
// ("sold-out"), a data- or aria- attribute, an icon's alt or title, a
// schema.org link's href (https://schema.org/InStock).
const yesNoAttr = (el, at) => at === 'class' || at.startsWith('data-') || at.startsWith('aria-') || at === 'alt' || at === 'title' ||
  (at === 'href' && el.hasAttribute('itemprop')) || (at === 'content' && el.hasAttribute('itemprop'));
// boolWays lists the ways a yes/no may be read in the rows: the text of
// each short text, or a telling attribute of each element, of the first
// rows. The caller learns which words mean true and which false, from the
// model's rows, and keeps the way whose words tell them apart.
function boolWays() {
  const out = [];
  const keys = new Set();
  const add = (c) => {
    const k = [c.by, c.select, c.header, c.label, c.attr].join('\u0000');
    if (!keys.has(k)) { keys.add(k); out.push(c); }
  };
  for (const row of rowEls.slice(0, 30)) {
    for (const el of [row, ...row.querySelectorAll('*')]) {
      if (['SCRIPT', 'STYLE', 'TEMPLATE'].includes(el.tagName)) continue;
      const t = text(el);
      const ways = waysOf(row, el);
      if (el !== row && t && t.length <= 40) for (const c of ways) add(Object.assign({}, c));
      for (const at of el.getAttributeNames()) {
        if (!yesNoAttr(el, at)) continue;
        // Found by what the rows share, not by the attribute that differs.
        for (const c of ways) if (!(c.by === 'attr' && c.names.includes(el.getAttribute(at)))) add(Object.assign({}, c, { attr: at }));
      }
    }
    if (out.length > 400) break;
  }
  return out;
}
// Ways to read each field, from the first row that has it, with what each
// reads in every row.
const fields = {};
for (const f of arg.fields) {
  if (f.type === 'boolean' && arg.rows.some((r) => present(r[f.name]))) {
    const cands = boolWays();
    for (const c of cands) c.values = rowEls.map((r) => readOne(r, c));
    fields[f.name] = cands;
    continue;
  }
  const i = arg.rows.findIndex((r) => present(r[f.name]));
  if (i < 0) { fields[f.name] = [{ by: 'none', names: [] }]; continue; }
  const row = rowEls[i];
  const el = matches[i][f.name].find((x) => row.contains(x));
  if (!el) { fields[f.name] = []; continue; }
  const cands = waysOf(row, el);
  for (const c of cands) c.values = rowEls.map((r) => readOne(r, c));
  fields[f.name] = cands;
}
// Ways learned on the list's other pages (arg.extra: {field: [way]}), with
// what each reads in this page's rows.
const extra = {};
for (const [name, ways] of Object.entries(arg.extra || {})) extra[name] = ways.map((w) => rowEls.map((r) => readOne(r, w)));
return { containers, row: tag.toLowerCase(), fields, extra, lang: norm(DOC.documentElement.lang || '') };
