new Promise(resolve => {
  // Resolves once what the last input set going inside the page has run:
  // the microtasks and zero-delay tasks (timers, message-channel tasks, as
  // frameworks schedule renders) its handlers queued, and what those
  // queued in turn, ending with a round of such tasks that changed nothing
  // in the DOM; at the latest after capMs. A round is a message task then
  // a timer of hopMs: a chain of zero-delay timers is clamped to 4 ms a
  // step once nested five deep, so each round outlasts a step. The
  // observer lives in our isolated world, so the page never sees it.
  const capMs = 1000, hopMs = 5, start = performance.now();
  // ANSWERED (set by settle.go): the fetch/XHR requests the action set
  // going that the browser saw answered, each with how long ago it was
  // sent. The browser tells of a response's end before the page may have
  // taken it in, so first the page's own record of each is waited for:
  // its resource timing entry, which the page adds once the response has
  // reached it. STILL_MS: if a record does not show in that long (the page
  // cleared its timings, or their buffer is full), the DOM staying still
  // that long is waited for instead.
  const answered = ANSWERED, stillMs = STILL_MS;
  let changed = true; // at least one round
  let lastChange = start;
  const obs = new MutationObserver(() => { changed = true; lastChange = performance.now(); });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const ch = new MessageChannel();
  const finish = () => {
    obs.disconnect();
    ch.port1.close();
    resolve(true);
  };
  const round = () => {
    if (obs.takeRecords().length) changed = true;
    if (!changed || performance.now() - start > capMs) {
      finish();
      return;
    }
    changed = false;
    ch.port2.postMessage(0); // a task after the ones queued so far, then a timer after those
  };
  let hop = FIRST_HOP_MS; // set by settle.go: the first round's length (a click's grace)
  ch.port1.onmessage = () => { setTimeout(round, Math.max(hop, hopMs)); hop = hopMs; };
  // A wheel scroll is the compositor's: the page's scroll offsets catch up
  // at a frame; and a response is often drawn at the next frame. So, after
  // the records, FRAMES frames (set by settle.go), each given up on after
  // 50 ms (a hidden page draws none).
  let frames = FRAMES;
  const frame = () => {
    if (frames-- <= 0) { round(); return; }
    let next = false;
    const go = () => { if (!next) { next = true; frame(); } };
    requestAnimationFrame(go);
    setTimeout(go, 50);
  };
  // An entry counts if it began no earlier than its request was sent, as
  // near as the two clocks tell (a request of the same URL before it is
  // not the one waited for).
  const recorded = () => answered.every(r =>
    performance.getEntriesByName(r.url).some(e => e.startTime >= start - r.ago - 250));
  const records = () => {
    if (recorded()) { frame(); return; }
    const now = performance.now();
    if (obs.takeRecords().length) lastChange = now;
    if (now - start > capMs || (now - start >= stillMs && now - lastChange >= stillMs)) {
      finish();
      return;
    }
    setTimeout(records, 2);
  };
  records();
})
