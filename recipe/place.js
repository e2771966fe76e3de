// Places of controls in the rows of a list (recipe.PlaceOf, recipe.At).
// arg: {recipe, op: "of"|"at", tag, name, text, row, place}.
// "of" finds the control a person pressed (by its tag, its name or text,
// and its row's key) in the list's rows: {row, place, count} with place a
// path of tags from its row, {ambiguous: n} when n rows hold one and the
// key tells none apart, or {rows: n} when no row holds it. "at" returns the
// control at place in row: {css} (a path from the document's root, so it
// names that one element) with its tag and text, or {} when there is none.
const list = listRows(arg.recipe);
if (list.error) return { error: list.error };
if (!list.found) return { missing: 'the list\'s container (' + arg.recipe.container + ') is not on the page' };
function nameOf(el) {
  return norm(el.getAttribute('aria-label') || (el.labels && el.labels[0] && text(el.labels[0])) || el.getAttribute('title') || el.getAttribute('alt') ||
    (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type) ? el.value : '') || text(el) || el.getAttribute('placeholder') || '');
}
function pathFrom(row, el) {
  const parts = [];
  for (let e = el; e && e !== row; e = e.parentElement) {
    const tag = e.tagName.toLowerCase();
    let k = 1;
    for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === e.tagName) k++;
    parts.unshift(tag + ':nth-of-type(' + k + ')');
  }
  return parts.length ? parts.join(' > ') : ':scope';
}
function rootPath(el) {
  const parts = [];
  for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
    let k = 1;
    for (let s = e.previousElementSibling; s; s = s.previousElementSibling) k++;
    parts.unshift(e.tagName.toLowerCase() + ':nth-child(' + k + ')');
  }
  return ['html'].concat(parts).join(' > ');
}
if (arg.op === 'of') {
  // Every row holds a control like it (a Save per row): the row is the one
  // whose text holds the key the evidence names (its first cell, heading
  // or name), or the only row that holds one.
  const tag = (arg.tag || '').toLowerCase();
  const key = norm(arg.key).toLowerCase();
  const found = [];
  for (let i = 0; i < list.rows.length; i++) {
    const row = list.rows[i];
    const all = [row].concat(Array.from(row.querySelectorAll('*'))).filter((e) => e.tagName.toLowerCase() === tag);
    // A fingerprint keeps names and texts in lower case.
    const name = norm(arg.name).toLowerCase(), txt = norm(arg.text).toLowerCase();
    let hits = all.filter((e) => (name && nameOf(e).toLowerCase() === name) || (txt && text(e).toLowerCase() === txt));
    if (!hits.length && !arg.name && !arg.text && all.length === 1) hits = all;
    if (hits.length) found.push({ row: i, place: pathFrom(row, hits[0]), count: hits.length, keyed: key !== '' && text(row).toLowerCase().includes(key) });
  }
  const keyed = found.filter((f) => f.keyed);
  if (keyed.length === 1) return keyed[0];
  if (found.length === 1) return found[0];
  if (found.length > 1) return { ambiguous: found.length };
  return { rows: list.rows.length };
}
const row = list.rows[arg.row];
if (!row) return { missing: 'the list has ' + list.rows.length + ' row(s), not ' + (arg.row + 1) };
let el = null;
try { el = arg.place === ':scope' ? row : row.querySelector(':scope > ' + arg.place); } catch (e) { return { error: 'place: ' + e.message }; }
if (!el) return { missing: 'row ' + (arg.row + 1) + ' has nothing at ' + arg.place };
return { css: rootPath(el), tag: el.tagName.toLowerCase(), name: nameOf(el) };
