async function (scrollTo) {
  // What part of a long document a CodeMirror editor draws now (it draws
  // only the lines near the view): the first and last drawn lines' text,
  // and where its scroller is. With scrollTo set, the scroller is first
  // moved there, as a wheel would, and the editor given two frames to
  // draw. Returns null for an editor that draws everything.
  const el = this;
  const lineSel = el.classList.contains('CodeMirror') ? '.CodeMirror-line' : el.classList.contains('cm-content') ? '.cm-line' : null;
  if (!lineSel) return null;
  // The scroller is whichever holds most of the document's height: the
  // editor's own, or the page's when the editor grows with its text.
  let sc = document.scrollingElement, most = sc.scrollHeight - sc.clientHeight;
  for (let n = el.classList.contains('CodeMirror') ? el.querySelector('.CodeMirror-scroll') : el.closest('.cm-scroller') || el; n && n !== document.documentElement; n = n.parentElement) {
    const range = n.scrollHeight - n.clientHeight;
    if (range > most && getComputedStyle(n).overflowY !== 'visible') { sc = n; most = range; }
  }
  if (typeof scrollTo === 'number') {
    sc.scrollTop = scrollTo;
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  }
  const texts = Array.from(el.querySelectorAll(lineSel)).filter(n => !n.closest('.CodeMirror-measure')).map(n => n.textContent.replace(/[\u200b\ufeff]/g, '').replace(/\u00a0/g, ' '));
  return { top: sc.scrollTop, max: Math.max(0, sc.scrollHeight - sc.clientHeight), lines: texts };
}
