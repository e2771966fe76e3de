// daemon_memory: memory of the resident daemon plus the Chromium it drives,
// with 1 and with 10 sessions, each session on a page.
//   waymark: one daemon (pid from `waymark daemon status --json`, data.pid);
//            sessions via `waymark --session NAME open URL`
//   agent-browser (peer figure): one daemon + one Chromium per --session
// Counted: the daemon(s) and every process below them (Chromium's browser,
// zygotes, GPU, network and storage utilities, renderers, the spare
// renderer) and Chromium's crash handlers, which detach (treemem.mjs),
// measured by treemem.mjs: tree PSS (each physical page counted
// once, not diluted by other programs on the machine: the headline, needs
// root), its anonymous part, and the kernel's PSS (diluted by every other
// Chromium running: it moves with the machine's load). The 1-session figure
// is the mean over the first ONE_PAGES pages (default all), each in a fresh
// daemon, so that it is the mean session of the 10 and not one page's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BASE_URL, run, ab, abClose, wm, wmClose, wmStopDaemon, waymarkPath, writeResult, table, machine,
} from './lib.mjs';
import { measureTrees, byKind } from './treemem.mjs';

const COUNTS = (process.env.COUNTS || '1 10').split(/\s+/).map(Number);
const PAGES = (process.env.PAGES || '/big /corpus/wikipedia-4.html /corpus/nytimes-1.html /corpus/theverge.html /corpus/mozilla-2.html /corpus/ietf-1.html /corpus/aclu.html /corpus/heise.html').split(/\s+/).filter(Boolean);
const ONE_PAGES = Math.min(Number(process.env.ONE_PAGES || PAGES.length), PAGES.length);
const SETTLE_MS = Number(process.env.SETTLE_MS || 3000);
const PEERS = process.env.PEERS !== '0';
const notes = [];
const sleep = (t) => new Promise((r) => setTimeout(r, t));

// mean: the runs' figures averaged (MB), kinds included.
function mean(runs) {
  const avg = (f) => (runs.some((r) => f(r) === null) ? null : runs.reduce((a, r) => a + f(r), 0) / runs.length);
  const kinds = {};
  for (const r of runs) for (const k of Object.keys(r.kinds)) kinds[k] = true;
  const out = {
    runs: runs.length,
    daemons: runs[0].daemons,
    processes: avg((r) => r.processes),
    daemon_rss: avg((r) => r.daemon_rss),
    rss: avg((r) => r.rss),
    pss: avg((r) => r.pss),
    tree_pss: avg((r) => r.tree_pss),
    anon: avg((r) => r.anon),
    kinds: {},
  };
  for (const k of Object.keys(kinds)) {
    const z = { n: 0, pss: 0, tree_pss: 0, anon: 0 };
    out.kinds[k] = Object.fromEntries(Object.keys(z).map((f) => [f, avg((r) => (r.kinds[k] ? r.kinds[k][f] : 0))]));
  }
  if (runs.length > 1) out.each = runs.map((r) => ({ page: r.page, tree_pss: r.tree_pss, pss: r.pss }));
  return out;
}

// measure: the trees under roots, with the daemons' own RSS.
function measure(roots) {
  const m = measureTrees(roots);
  const daemon_rss = m.procs.filter((p) => roots.includes(p.pid)).reduce((a, p) => a + p.rss, 0);
  const toMB = (b) => (b === null ? null : b / 2 ** 20);
  return { daemons: roots.length, processes: m.processes, daemon_rss: toMB(daemon_rss), rss: toMB(m.rss), pss: toMB(m.pss), tree_pss: toMB(m.tree_pss), anon: toMB(m.anon), kinds: byKind(m) };
}

// runs: for n sessions, the page offsets of each run (n=1: one run a page).
const runsFor = (n) => (n === 1 ? Array.from({ length: ONE_PAGES }, (_, i) => i) : [0]);

const results = {};

async function waymarkRun(bin) {
  results.waymark = {};
  for (const n of COUNTS) {
    const names = Array.from({ length: n }, (_, i) => `bench-mem-${i}`);
    const runs = [];
    for (const off of runsFor(n)) {
      try {
        for (let i = 0; i < n; i++) {
          const r = wm(bin, names[i], 'open', BASE_URL + PAGES[(i + off) % PAGES.length]);
          if (r.code !== 0) throw new Error(`waymark --session ${names[i]} open: ${(r.stderr || r.stdout).trim().slice(0, 200)}`);
        }
        await sleep(SETTLE_MS);
        const st = run(bin, ['daemon', 'status', '--json']);
        const pid = JSON.parse(st.stdout).data.pid;
        runs.push({ page: PAGES[off], ...measure([pid]) });
      } catch (e) { notes.push(`waymark with ${n} sessions: ${e.message}`); }
      finally { for (const s of names) wmClose(bin, s); wmStopDaemon(bin); }
    }
    if (runs.length) results.waymark[n] = mean(runs);
  }
}

async function agentBrowserRun() {
  results['agent-browser'] = {};
  const sockDir = process.env.AGENT_BROWSER_SOCKET_DIR;
  for (const n of COUNTS) {
    const names = Array.from({ length: n }, (_, i) => `bench-mem-${i}`);
    const runs = [];
    for (const off of runsFor(n)) {
      try {
        for (let i = 0; i < n; i++) {
          const r = ab(names[i], 'open', BASE_URL + PAGES[(i + off) % PAGES.length]);
          if (r.code !== 0) throw new Error(`agent-browser --session ${names[i]} open: ${(r.stderr || r.stdout).trim().slice(0, 200)}`);
        }
        await sleep(SETTLE_MS);
        const pids = names.map((s) => Number(readFileSync(join(sockDir, `${s}.pid`), 'utf8').trim()));
        runs.push({ page: PAGES[off], ...measure(pids) });
      } catch (e) { notes.push(`agent-browser with ${n} sessions: ${e.message}`); }
      finally { for (const s of names) abClose(s); }
    }
    if (runs.length) results['agent-browser'][n] = mean(runs);
  }
}

const wmBin = waymarkPath();
if (wmBin) await waymarkRun(wmBin);
else notes.push('waymark not built: no bin/waymark (WAYMARK_BIN) and no waymark on PATH; skipped');
if (PEERS) await agentBrowserRun();

const f = (x) => (x === null || x === undefined ? '—' : Math.round(x).toLocaleString('en-US'));
const rows = [];
for (const tool of PEERS ? ['waymark', 'agent-browser'] : ['waymark']) {
  if (!results[tool]) { rows.push([tool, '—', tool === 'waymark' && !wmBin ? 'not built' : 'failed', '', '', '', '', '']); continue; }
  for (const n of COUNTS) {
    const m = results[tool][n];
    rows.push([tool, n + (m && m.runs > 1 ? ` (mean of ${m.runs})` : ''), m ? m.daemons : '—', m ? f(m.daemon_rss) : '—', m ? f(m.tree_pss) : '—', m ? f(m.anon) : '—', m ? f(m.pss) : '—', m ? Math.round(m.processes) : '—']);
  }
}
console.log(`daemon memory (MB), sessions each on a page, measured ${SETTLE_MS} ms after the last open`);
console.log(table(['tool', 'sessions', 'daemons', 'daemon RSS', 'tree PSS', 'anonymous', 'PSS', 'processes'], rows));

// Per process kind, for each tool's smallest and largest count: where a
// session's memory goes.
const [lo, hi] = [Math.min(...COUNTS), Math.max(...COUNTS)];
for (const tool of Object.keys(results)) {
  const a = results[tool][lo], b = results[tool][hi];
  if (!a || !b || lo === hi) continue;
  const kinds = [...new Set([...Object.keys(a.kinds), ...Object.keys(b.kinds)])].sort();
  const g = (m, k, fld) => (m.kinds[k] ? m.kinds[k][fld] : 0);
  const r1 = (x) => (x === null ? '—' : x.toFixed(1));
  const krows = kinds.map((k) => [k, r1(g(a, k, 'n')), r1(g(a, k, 'tree_pss')), r1(g(a, k, 'anon')), r1(g(b, k, 'n')), r1(g(b, k, 'tree_pss')), r1(g(b, k, 'anon')),
    g(a, k, 'tree_pss') === null ? '—' : r1((g(b, k, 'tree_pss') - g(a, k, 'tree_pss')) / (hi - lo))]);
  console.log(`\n${tool}: by process kind (MB; tree PSS and its anonymous part)`);
  console.log(table(['kind', `n@${lo}`, `tree@${lo}`, `anon@${lo}`, `n@${hi}`, `tree@${hi}`, `anon@${hi}`, 'tree per added session'], krows));
}

const ratio = (x, y) => (x === null || y === null || x === undefined || y === undefined ? '—' : (x / y).toFixed(2) + '×');
const w = results.waymark || {}, p = results['agent-browser'] || {};
const rrows = [];
if (w[lo] && w[hi] && lo !== hi) rrows.push([`waymark ${hi} ÷ waymark ${lo} (goal ≤ 2×)`, ratio(w[hi].tree_pss, w[lo].tree_pss), ratio(w[hi].anon, w[lo].anon), ratio(w[hi].pss, w[lo].pss)]);
if (w[lo] && p[lo] && lo !== hi) rrows.push([`waymark ${lo} ÷ agent-browser ${lo} (goal ≤ 1×)`, ratio(w[lo].tree_pss, p[lo].tree_pss), ratio(w[lo].anon, p[lo].anon), ratio(w[lo].pss, p[lo].pss)]);
if (w[hi] && p[hi]) rrows.push([`waymark ${hi} ÷ agent-browser ${hi} (goal ≤ 0.25×)`, ratio(w[hi].tree_pss, p[hi].tree_pss), ratio(w[hi].anon, p[hi].anon), ratio(w[hi].pss, p[hi].pss)]);
if (rrows.length) console.log('\n' + table(['ratio', 'tree PSS', 'anonymous', 'PSS'], rrows));
console.log('\ntree PSS: each physical page of the trees once, split among their processes that map it (what PSS sums to with nothing else running); anonymous: its heap and shared-memory part; PSS: the kernel\'s, diluted by other programs mapping the same files.');
for (const n of notes) console.log('note: ' + n);
console.log('wrote ' + writeResult('daemon_memory.json', { machine: machine(), counts: COUNTS, pages: PAGES, one_pages: ONE_PAGES, settle_ms: SETTLE_MS, results, notes }));
