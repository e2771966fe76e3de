new Promise(resolve => {
  // Resolves once the DOM has been still for quietMs, or after capMs. The
  // observer lives in our isolated world, so the page never sees it.
  const quietMs = QUIET_MS, capMs = 1000; // QUIET_MS: set by settle.go
  let timer;
  const done = () => { obs.disconnect(); clearTimeout(cap); resolve(true); };
  const obs = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quietMs); });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  timer = setTimeout(done, quietMs);
  const cap = setTimeout(done, capMs);
})
