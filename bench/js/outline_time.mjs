// outline_time: how long one look at /big takes.
//   - bare CDP calls through playwright-core's CDPSession
//       Accessibility.getFullAXTree; DOMSnapshot.captureSnapshot (display,
//       visibility, DOM rects)
//   - Playwright in-process: page.locator('body').ariaSnapshot()
//   - agent-browser `snapshot` and `snapshot -i` (whole process)
//   - waymark `snapshot`, `snapshot --full` and `snapshot -i` (whole process),
//     when built (waymark's plain snapshot shows the viewport in full and sums
//     up the rest; --full is the whole page, like agent-browser's snapshot)
// Each tool has its own Chromium on the same page; one iteration runs every
// measurement once (interleaved); WARMUP iterations are dropped, then the
// median of N is reported.
import {
  BASE_URL, AB_BIN, median, ms, run, ab, abClose, waymarkPath, wm, wmClose, wmStopDaemon,
  launchPlaywright, writeResult, fmt, table, machine,
} from './lib.mjs';

const N = Number(process.env.N || 15);
const WARMUP = Number(process.env.WARMUP || 2);
const PAGE = process.env.PAGE_PATH || '/big';
const url = BASE_URL + PAGE;
const AB_S = 'bench-outline';
const WM_S = 'bench-outline';

const notes = [];
const samples = {};
const sizes = {};
const add = (k, v) => (samples[k] ||= []).push(v);

const browser = await launchPlaywright();
let wmBin = waymarkPath();
try {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load', timeout: 60000 });
  const cdp = await page.context().newCDPSession(page);

  // agent-browser
  let abOK = true;
  const o = ab(AB_S, 'open', url);
  if (o.code !== 0) { abOK = false; notes.push(`agent-browser open failed: ${o.stderr || o.stdout}`); }

  // waymark
  if (!wmBin) {
    notes.push('waymark not built: no bin/waymark (WAYMARK_BIN) and no waymark on PATH; its rows are skipped');
  } else {
    const w = wm(wmBin, WM_S, 'open', url);
    if (w.code !== 0) { notes.push(`waymark open failed (${w.code}): ${(w.stderr || w.stdout).trim().slice(0, 300)}; its rows are skipped`); wmBin = null; }
  }

  const steps = [
    ['cdp Accessibility.getFullAXTree', async () => {
      const t0 = process.hrtime.bigint();
      const r = await cdp.send('Accessibility.getFullAXTree');
      const d = ms(t0); sizes['cdp Accessibility.getFullAXTree'] = `${r.nodes.length} AX nodes`; return d;
    }],
    ['cdp DOMSnapshot.captureSnapshot', async () => {
      const t0 = process.hrtime.bigint();
      const r = await cdp.send('DOMSnapshot.captureSnapshot', { computedStyles: ['display', 'visibility'], includeDOMRects: true });
      const d = ms(t0); sizes['cdp DOMSnapshot.captureSnapshot'] = `${r.documents[0].nodes.nodeName.length} DOM nodes`; return d;
    }],
    ['playwright ariaSnapshot()', async () => {
      const t0 = process.hrtime.bigint();
      const s = await page.locator('body').ariaSnapshot({ timeout: 60000 });
      const d = ms(t0); sizes['playwright ariaSnapshot()'] = `${s.length} chars`; return d;
    }],
  ];
  if (abOK) {
    steps.push(['agent-browser snapshot', async () => {
      const r = ab(AB_S, 'snapshot'); if (r.code !== 0) throw new Error('agent-browser snapshot: ' + r.stderr);
      sizes['agent-browser snapshot'] = `${r.stdout.length} chars`; return r.ms;
    }]);
    steps.push(['agent-browser snapshot -i', async () => {
      const r = ab(AB_S, 'snapshot', '-i'); if (r.code !== 0) throw new Error('agent-browser snapshot -i: ' + r.stderr);
      sizes['agent-browser snapshot -i'] = `${r.stdout.length} chars`; return r.ms;
    }]);
  }
  if (wmBin) {
    steps.push(['waymark snapshot', async () => {
      const r = wm(wmBin, WM_S, 'snapshot'); if (r.code !== 0) throw new Error('waymark snapshot: ' + r.stderr);
      sizes['waymark snapshot'] = `${r.stdout.length} chars`; return r.ms;
    }]);
    steps.push(['waymark snapshot --full', async () => {
      const r = wm(wmBin, WM_S, 'snapshot', '--full'); if (r.code !== 0) throw new Error('waymark snapshot --full: ' + r.stderr);
      sizes['waymark snapshot --full'] = `${r.stdout.length} chars`; return r.ms;
    }]);
    steps.push(['waymark snapshot -i', async () => {
      const r = wm(wmBin, WM_S, 'snapshot', '-i'); if (r.code !== 0) throw new Error('waymark snapshot -i: ' + r.stderr);
      sizes['waymark snapshot -i'] = `${r.stdout.length} chars`; return r.ms;
    }]);
  }

  const failed = new Set();
  for (let it = 0; it < WARMUP + N; it++) {
    for (const [name, fn] of steps) {
      if (failed.has(name)) continue;
      try {
        const d = await fn();
        if (it >= WARMUP) add(name, d);
      } catch (e) {
        failed.add(name); notes.push(`${name} failed: ${String(e.message || e).slice(0, 300)}`);
      }
    }
  }
} finally {
  abClose(AB_S);
  if (wmBin) { wmClose(wmBin, WM_S); wmStopDaemon(wmBin); }
  await browser.close();
}

const med = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
const abRef = med['agent-browser snapshot'];
const pwRef = med['playwright ariaSnapshot()'];
const rows = Object.keys(med).map(k => [
  k, fmt(med[k]), fmt(Math.min(...samples[k])), fmt(Math.max(...samples[k])),
  abRef ? fmt(med[k] / abRef, 2) : '—', pwRef ? fmt(med[k] / pwRef, 2) : '—', sizes[k] || '',
]);
if (!waymarkPath()) rows.push(['waymark snapshot', 'waymark not built', '', '', '', '', '']);

console.log(`outline time on ${PAGE}: median of ${N} after ${WARMUP} warm-ups, ms (interleaved)`);
console.log(table(['measurement', 'median', 'min', 'max', '÷ agent-browser snapshot', '÷ playwright ariaSnapshot', 'output'], rows));
for (const n of notes) console.log('note: ' + n);
const p = writeResult('outline_time.json', { machine: machine(), page: PAGE, n: N, warmup: WARMUP, median_ms: med, samples_ms: samples, sizes, notes });
console.log('wrote ' + p);
