async function (op, sentinel) {
  // The clipboard as our isolated world reads it (the session granted it
  // the permission): "mark" writes a sentinel, so that a copy the page
  // blocks is told from one that copied; "read" returns its text and HTML.
  try {
    if (op === 'mark') {
      await navigator.clipboard.writeText(sentinel);
      return { ok: true };
    }
    const out = { ok: true, text: '', html: '' };
    for (const item of await navigator.clipboard.read()) {
      if (item.types.includes('text/plain')) out.text = await (await item.getType('text/plain')).text();
      if (item.types.includes('text/html')) out.html = await (await item.getType('text/html')).text();
    }
    return out;
  } catch (e) {
    return { ok: false, error: String(e && e.message || e) };
  }
}
