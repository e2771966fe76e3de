// Shared by read.js and learn.js; both are wrapped, with it, in one
// function so nothing is left in the isolated world's globals.
function norm(s) { return (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim(); }
// DOC is the page read: the one in the tab, or a page read earlier kept
// as a snapshot (snapshot.js) and parsed into an inert document, whose
// elements carry the text they showed in the tab.
const DOC = arg && typeof arg.snapshot === 'string' ? new DOMParser().parseFromString(arg.snapshot, 'text/html') : document;
function text(el) {
  if (DOC !== document) {
    const t = el.getAttribute('data-waymark-text');
    return t !== null ? t : norm(el.textContent);
  }
  return norm(el.innerText !== undefined ? el.innerText : el.textContent);
}
function headers(row) {
  const table = row.closest('table');
  if (!table) return [];
  let hr = table.tHead && table.tHead.rows[0];
  if (!hr) hr = Array.from(table.rows).find((tr) => tr.cells.length && Array.from(tr.cells).every((c) => c.tagName === 'TH'));
  return hr ? Array.from(hr.cells).map(text) : [];
}
// readOne reads one field of one row: text or null.
function readOne(row, f) {
  let el = null;
  if (f.by === 'none') return null;
  if (f.by === 'header') {
    const i = headers(row).indexOf(f.header);
    if (i < 0 || !row.cells || i >= row.cells.length) return null;
    el = row.cells[i];
  } else if (f.by === 'label') {
    const lab = Array.from(row.querySelectorAll('*')).find((e) => e.children.length === 0 && text(e).replace(/:$/, '') === f.label);
    if (!lab) return null;
    el = lab.nextElementSibling;
    if (!el) return norm(text(lab.parentElement).slice(text(lab).length)) || null;
  } else {
    if (!f.select) el = row; // the row's own text
    else try { el = row.querySelector(f.select); } catch (e) { return null; }
  }
  if (!el) return null;
  const v = norm(f.attr ? el.getAttribute(f.attr) : text(el));
  return v === '' ? null : v;
}
// listRows finds the rows of a list by a recipe: {error} when a selector
// does not parse, else {found, rows: [element], values: [{field: text|null}]}.
// A child with none of the fields (a table's header row) is not a row.
function listRows(r) {
  let container = null;
  try { container = DOC.querySelector(r.container); } catch (e) { return { error: 'container: ' + e.message }; }
  if (!container) return { found: false, rows: [], values: [] };
  let els = [];
  try { els = Array.from(container.querySelectorAll(':scope > ' + r.row)); } catch (e) { return { error: 'row: ' + e.message }; }
  const rows = [], values = [];
  for (const row of els) {
    // A table's header row names the columns: it is not a row of the list.
    if (row.cells && row.cells.length && Array.from(row.cells).every((c) => c.tagName === 'TH')) continue;
    const out = {};
    let any = false;
    for (const f of r.fields) {
      out[f.name] = readOne(row, f);
      if (out[f.name] !== null) any = true;
    }
    if (any) { rows.push(row); values.push(out); }
  }
  return { found: true, rows, values };
}
