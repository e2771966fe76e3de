// daemon_memory: memory of the resident daemon plus the Chromium it drives,
// with 1 and with 10 sessions, each session on a page.
//   waymark: one daemon (pid from `waymark daemon status --json`, data.pid);
//            sessions via `waymark --session NAME open URL`
//   agent-browser (peer figure): one daemon + one Chromium per --session
// Reported: RSS of the daemon(s), and RSS and PSS (proportional set size,
// which splits shared pages; RSS sums count them once per process) summed
// over the daemon(s) and all their descendant processes.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  BASE_URL, run, ab, abClose, waymarkPath, wm, wmClose, wmStopDaemon, writeResult, table, machine,
} from './lib.mjs';

const COUNTS = (process.env.COUNTS || '1 10').split(/\s+/).map(Number);
const PAGES = (process.env.PAGES || '/big /corpus/wikipedia-4.html /corpus/nytimes-1.html /corpus/theverge.html /corpus/mozilla-2.html /corpus/ietf-1.html /corpus/aclu.html /corpus/heise.html').split(/\s+/).filter(Boolean);
const SETTLE_MS = Number(process.env.SETTLE_MS || 3000);
const PEERS = process.env.PEERS !== '0';
const notes = [];
const sleep = (t) => new Promise((r) => setTimeout(r, t));

function procTable() {
  const kids = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(d));
    } catch {}
  }
  return kids;
}
function tree(root, kids) {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]) || []));
  return out;
}
function memKB(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const g = (k) => Number((s.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm')) || [0, 0])[1]);
    return { rss: g('Rss'), pss: g('Pss') };
  } catch { return { rss: 0, pss: 0 }; }
}
function measure(rootPids) {
  const kids = procTable();
  let daemonRss = 0, rss = 0, pss = 0, procs = 0;
  for (const r of rootPids) {
    daemonRss += memKB(r).rss;
    for (const p of tree(r, kids)) { const m = memKB(p); rss += m.rss; pss += m.pss; procs++; }
  }
  const mb = (kb) => Math.round(kb / 1024);
  return { daemon_rss_mb: mb(daemonRss), total_rss_mb: mb(rss), total_pss_mb: mb(pss), processes: procs, daemons: rootPids.length };
}

const results = {};

async function waymarkRun(bin) {
  results.waymark = {};
  for (const n of COUNTS) {
    const names = Array.from({ length: n }, (_, i) => `bench-mem-${i}`);
    try {
      for (let i = 0; i < n; i++) {
        const r = wm(bin, names[i], 'open', BASE_URL + PAGES[i % PAGES.length]);
        if (r.code !== 0) throw new Error(`waymark --session ${names[i]} open: ${(r.stderr || r.stdout).trim().slice(0, 200)}`);
      }
      await sleep(SETTLE_MS);
      const st = run(bin, ['daemon', 'status', '--json']);
      const pid = JSON.parse(st.stdout).data.pid;
      results.waymark[n] = measure([pid]);
    } catch (e) { notes.push(`waymark with ${n} sessions: ${e.message}`); }
    finally { for (const s of names) wmClose(bin, s); wmStopDaemon(bin); }
  }
}

async function agentBrowserRun() {
  results['agent-browser'] = {};
  const sockDir = process.env.AGENT_BROWSER_SOCKET_DIR;
  for (const n of COUNTS) {
    const names = Array.from({ length: n }, (_, i) => `bench-mem-${i}`);
    try {
      for (let i = 0; i < n; i++) {
        const r = ab(names[i], 'open', BASE_URL + PAGES[i % PAGES.length]);
        if (r.code !== 0) throw new Error(`agent-browser --session ${names[i]} open: ${(r.stderr || r.stdout).trim().slice(0, 200)}`);
      }
      await sleep(SETTLE_MS);
      const pids = names.map((s) => Number(readFileSync(join(sockDir, `${s}.pid`), 'utf8').trim()));
      results['agent-browser'][n] = measure(pids);
    } catch (e) { notes.push(`agent-browser with ${n} sessions: ${e.message}`); }
    finally { for (const s of names) abClose(s); }
  }
}

const wmBin = waymarkPath();
if (wmBin) await waymarkRun(wmBin);
else notes.push('waymark not built: no bin/waymark (WAYMARK_BIN) and no waymark on PATH; skipped');
if (PEERS) await agentBrowserRun();

const rows = [];
for (const tool of PEERS ? ['waymark', 'agent-browser'] : ['waymark']) {
  if (!results[tool]) { rows.push([tool, '—', tool === 'waymark' && !wmBin ? 'not built' : 'failed', '', '', '', '']); continue; }
  for (const n of COUNTS) {
    const m = results[tool][n];
    rows.push([tool, n, m ? m.daemons : '—', m ? m.daemon_rss_mb : '—', m ? m.total_rss_mb : '—', m ? m.total_pss_mb : '—', m ? m.processes : '—']);
  }
}
console.log(`daemon memory (MB), sessions each on a page, measured ${SETTLE_MS} ms after the last open`);
console.log(table(['tool', 'sessions', 'daemons', 'daemon RSS', 'daemon+Chromium RSS', 'daemon+Chromium PSS', 'processes'], rows));
for (const n of notes) console.log('note: ' + n);
console.log('wrote ' + writeResult('daemon_memory.json', { machine: machine(), counts: COUNTS, pages: PAGES, results, notes }));
