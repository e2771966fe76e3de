// Keeps the page in the tab as HTML a later script can read as it was
// (common.js's DOC): a copy made in an inert document (nothing in it
// loads or runs), each element carrying the text it shows in the tab, and
// no scripts or styles.
const inert = document.implementation.createHTMLDocument('');
const copy = inert.importNode(document.documentElement, true);
const live = Array.from(document.documentElement.querySelectorAll('*'));
const copies = Array.from(copy.querySelectorAll('*'));
for (let i = 0; i < live.length && i < copies.length; i++) {
  const e = live[i], c = copies[i];
  if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(e.tagName)) { c.textContent = ''; continue; }
  const t = text(e);
  if (t.length <= 2000) c.setAttribute('data-waymark-text', t);
}
return '<!doctype html>' + copy.outerHTML;
