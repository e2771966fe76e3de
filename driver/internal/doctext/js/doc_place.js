async function (mode, words) {
  // Finds words in what the editor shows and puts the caret there: right
  // after them ("after"), over them when they are a whole line
  // ("replace"), or at the end ("end"). A rich-text editor takes a
  // selection placed here (it follows selectionchange); a CodeMirror 5
  // editor keeps its own, so for it the places to click are returned
  // instead (or the key for the end). Nothing of the page's is changed.
  // Returns {count, places, placed, first, last, key}.
  const el = this;
  words = words || '';
  const cm5 = el.classList.contains('CodeMirror');
  const root = cm5 ? (el.querySelector('.CodeMirror-code') || el) : el;
  const scan = () => {
    let text = '';
    const at = [];
    const blockCache = new Map();
    const blockOf = n => {
      let p = n.parentElement;
      while (p && p !== root) {
        let d = blockCache.get(p);
        if (d === undefined) { d = getComputedStyle(p).display; blockCache.set(p, d); }
        if (!d.startsWith('inline') && d !== 'contents') return p;
        p = p.parentElement;
      }
      return root;
    };
    let prev = null;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const pe = n.parentElement;
      const widget = pe && pe.closest('[contenteditable="false"]');
      if (widget && widget !== el && el.contains(widget)) continue;
      if (cm5 && pe && pe.closest('.CodeMirror-gutter-wrapper, .CodeMirror-linewidget')) continue;
      const b = blockOf(n);
      if (prev && b !== prev) { text += '\n'; at.push(null); }
      prev = b;
      const s = n.data;
      for (let i = 0; i < s.length; i++) {
        const ch = s[i];
        if (ch === '\u200b' || ch === '\ufeff') continue;
        text += ch === '\u00a0' ? ' ' : ch;
        at.push([n, i]);
      }
    }
    let hay = text.toLowerCase(), needle = words.replace(/\u00a0/g, ' ').toLowerCase();
    if (hay.length !== text.length || needle.length !== words.length) { hay = text; needle = words; }
    const found = [];
    for (let i = hay.indexOf(needle); i >= 0 && needle; i = hay.indexOf(needle, i + 1)) {
      if (mode === 'replace') {
        const before = text.lastIndexOf('\n', i - 1) + 1;
        let after = text.indexOf('\n', i + needle.length);
        if (after < 0) after = text.length;
        if (text.slice(before, i).trim() || text.slice(i + needle.length, after).trim()) continue;
      }
      found.push(i);
    }
    return { text, at, found, needle };
  };
  let { text, at, found, needle } = scan();
  if (mode === 'end') {
    // The end of the document: after its last character. An editor that
    // draws only part of a long document is sent there by its key.
    if (cm5 || el.classList.contains('cm-content')) return { count: 1, places: [], placed: false, key: 'Control+End' };
    let k = at.length - 1;
    while (k >= 0 && !at[k]) k--;
    const sel = getSelection();
    const changed = new Promise(resolve => {
      document.addEventListener('selectionchange', resolve, { once: true });
      setTimeout(resolve, 200);
    });
    if (k < 0) sel.setBaseAndExtent(el, 0, el, 0);
    else sel.setBaseAndExtent(at[k][0], at[k][1] + 1, at[k][0], at[k][1] + 1);
    await changed;
    await new Promise(resolve => setTimeout(resolve, 0));
    return { count: 1, places: [], placed: true };
  }
  const out = { count: found.length, places: [], placed: false };
  for (const i of found.slice(0, 5)) {
    const ls = text.lastIndexOf('\n', i - 1) + 1;
    let le = text.indexOf('\n', i);
    if (le < 0) le = text.length;
    out.places.push(text.slice(ls, le).slice(0, 120));
  }
  if (found.length !== 1) return out;
  const i = found[0], j = i + needle.length - 1;
  const first = at[i], last = at[j];
  if (!first || !last) return out;
  if (!cm5) {
    const sel = getSelection();
    const changed = new Promise(resolve => {
      document.addEventListener('selectionchange', resolve, { once: true });
      setTimeout(resolve, 200);
    });
    if (mode === 'after') sel.setBaseAndExtent(last[0], last[1] + 1, last[0], last[1] + 1);
    else sel.setBaseAndExtent(first[0], first[1], last[0], last[1] + 1);
    await changed;
    // One more turn, so that the editor's own selectionchange handler ran.
    await new Promise(resolve => setTimeout(resolve, 0));
    out.placed = true;
    return out;
  }
  const rectOf = ([n, k]) => {
    const r = document.createRange();
    r.setStart(n, k);
    r.setEnd(n, k + 1);
    const rs = r.getClientRects();
    return rs.length ? rs[rs.length - 1] : r.getBoundingClientRect();
  };
  // The editor draws again as it scrolls: look again once it has.
  first[0].parentElement.scrollIntoView({ block: 'center' });
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  ({ text, at, found, needle } = scan());
  if (found.length !== 1 || !at[found[0]] || !at[found[0] + needle.length - 1]) return { count: found.length, places: out.places, placed: false };
  const a = rectOf(at[found[0]]), b = rectOf(at[found[0] + needle.length - 1]);
  out.first = { x: a.left + Math.min(1, a.width / 4), y: a.top + a.height / 2 };
  out.last = { x: b.right - Math.min(1, b.width / 4), y: b.top + b.height / 2 };
  return out;
}
