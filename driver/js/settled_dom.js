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
  let changed = true; // at least one round
  const obs = new MutationObserver(() => { changed = true; });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const ch = new MessageChannel();
  const round = () => {
    if (obs.takeRecords().length) changed = true;
    if (!changed || performance.now() - start > capMs) {
      obs.disconnect();
      ch.port1.close();
      resolve(true);
      return;
    }
    changed = false;
    ch.port2.postMessage(0); // a task after the ones queued so far, then a timer after those
  };
  let hop = FIRST_HOP_MS; // set by settle.go: the first round's length (a click's grace)
  ch.port1.onmessage = () => { setTimeout(round, Math.max(hop, hopMs)); hop = hopMs; };
  // A wheel scroll is the compositor's: the page's scroll offsets catch up
  // at a frame. So, first, FRAMES frames (set by settle.go), each given up on
  // after 50 ms (a hidden page draws none).
  let frames = FRAMES;
  const frame = () => {
    if (frames-- <= 0) { round(); return; }
    let next = false;
    const go = () => { if (!next) { next = true; frame(); } };
    requestAnimationFrame(go);
    setTimeout(go, 50);
  };
  frame();
})
