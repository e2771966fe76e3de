// command_time: whole-process time of single commands against a warm daemon:
// `get url`, `snapshot -i`, `click <ref>` on /big, for agent-browser and
// waymark (when built). Median of RUNS (20) after a warm-up run; uses
// hyperfine (-N, no shell) when it is installed, else a timing loop here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BASE_URL, AB_BIN, TMP_DIR, median, run, ab, abClose, waymarkPath, wm, wmClose, wmStopDaemon,
  findRef, writeResult, fmt, table, machine,
} from './lib.mjs';

const RUNS = Number(process.env.RUNS || 20);
const PAGE = process.env.PAGE_PATH || '/big';
const url = BASE_URL + PAGE;
const CLICK = process.env.CLICK || 'button "Select item 1"';
const INTERLEAVE = process.env.INTERLEAVE === '1';
// GAP_MS (interleaved only): an untimed pause after each command, so that
// what the last action set going (a click's request, the render of its
// answer) has ended before the next tool's command: each command then runs
// on a settled page. Without it a tool that waits for its own last action's
// effects pays the part of that wait the other tools' commands did not cover.
const GAP_MS = Number(process.env.GAP_MS || 0);
const pause = (ms) => { if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); };
const S = 'bench-cmd';
const notes = [];
const hyperfine = run('sh', ['-c', 'command -v hyperfine']).stdout.trim() || null;
notes.push(hyperfine ? `timed with ${run(hyperfine, ['--version']).stdout.trim()} -N (no shell), --warmup 1, --runs ${RUNS}` : `hyperfine not found: timed with a node spawnSync loop, 1 warm-up, ${RUNS} runs`);

function time(label, argv) {
  if (hyperfine) {
    const out = join(TMP_DIR, `hf-${label.replace(/\W+/g, '_')}.json`);
    const r = run(hyperfine, ['-N', '--warmup', '1', '--runs', String(RUNS), '--style', 'none',
      '--export-json', out, argv.join(' ')], { timeoutMs: 600000 });
    if (r.code !== 0) throw new Error(`hyperfine: ${r.stderr.trim().slice(0, 300)}`);
    const res = JSON.parse(readFileSync(out, 'utf8')).results[0];
    return { median: res.median * 1000, min: res.min * 1000, max: res.max * 1000, samples: res.times.map(t => t * 1000) };
  }
  const xs = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const r = run(argv[0], argv.slice(1));
    if (r.code !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr.trim().slice(0, 300)}`);
    if (i > 0) xs.push(r.ms);
  }
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), samples: xs };
}

const results = {}; // tool -> command -> stats
const plans = {};   // INTERLEAVE: tool -> the commands to time

// interleaved times each command RUNS times (after a warm-up), the tools
// taking turns, the first tool rotating, in node (spawnSync).
function interleaved() {
  const tools = Object.keys(plans);
  const names = [...new Set(tools.flatMap(t => plans[t].cmds.map(([n]) => n.startsWith('click') ? 'click <ref>' : n)))];
  for (const name of names) {
    const xs = Object.fromEntries(tools.map(t => [t, []]));
    for (let i = 0; i <= RUNS; i++) {
      for (let k = 0; k < tools.length; k++) {
        const t = tools[(i + k) % tools.length];
        const c = plans[t].cmds.find(([n]) => (n.startsWith('click') ? 'click <ref>' : n) === name);
        if (!c) continue;
        const argv = plans[t].argvFor(c[1]);
        const r = run(argv[0], argv.slice(1));
        if (r.code !== 0) { notes.push(`${t} ${name} failed: ${r.stderr.trim().slice(0, 300)}`); continue; }
        if (i > 0) xs[t].push(r.ms);
        pause(GAP_MS);
      }
    }
    for (const t of tools) {
      if (!xs[t].length) continue;
      const c = plans[t].cmds.find(([n]) => (n.startsWith('click') ? 'click <ref>' : n) === name);
      results[t][name] = { median: median(xs[t]), min: Math.min(...xs[t]), max: Math.max(...xs[t]), samples: xs[t], command: plans[t].argvFor(c[1]).join(' ') };
    }
  }
}
function bench(tool, argvFor) {
  results[tool] = {};
  const sv = argvFor(['snapshot', '-i']);
  const snap = run(sv[0], sv.slice(1));
  const ref = findRef(snap.stdout, CLICK);
  if (!ref) notes.push(`${tool}: no ref found for ${CLICK} in snapshot -i; click skipped`);
  const cmds = [['get url', ['get', 'url']], ['snapshot -i', ['snapshot', '-i']]];
  if (ref) cmds.push([`click ${ref}`, ['click', ref]]);
  if (INTERLEAVE) { plans[tool] = { argvFor, cmds }; return; }
  for (const [name, args] of cmds) {
    try {
      results[tool][name.startsWith('click') ? 'click <ref>' : name] = { ...time(`${tool}-${name}`, argvFor(args)), command: argvFor(args).join(' ') };
    } catch (e) { notes.push(`${tool} ${name} failed: ${e.message}`); }
  }
}

let wmBin = waymarkPath();
try {
  const o = ab(S, 'open', url);
  if (o.code !== 0) notes.push(`agent-browser open failed: ${o.stderr || o.stdout}`);
  else bench('agent-browser', (args) => [AB_BIN, '--session', S, ...args]);

  if (!wmBin) notes.push('waymark not built: no bin/waymark (WAYMARK_BIN) and no waymark on PATH; its column is empty');
  else {
    const w = wm(wmBin, S, 'open', url);
    if (w.code !== 0) notes.push(`waymark open failed (${w.code}): ${(w.stderr || w.stdout).trim().slice(0, 300)}`);
    else bench('waymark', (args) => [wmBin, '--session', S, ...args]);
  }
  if (INTERLEAVE) {
    notes.push(`interleaved: the tools take turns command by command, timed in node (spawnSync), 1 warm-up, ${RUNS} runs` +
      (GAP_MS > 0 ? `, an untimed ${GAP_MS} ms pause after each command` : ', no pause between commands'));
    interleaved();
  }
} finally {
  abClose(S);
  if (wmBin) { wmClose(wmBin, S); wmStopDaemon(wmBin); }
}

const names = ['get url', 'snapshot -i', 'click <ref>'];
const a = results['agent-browser'] || {}, w = results['waymark'] || {};
const rows = names.map(n => [
  n, fmt(a[n]?.median), a[n] ? `${fmt(a[n].min)}–${fmt(a[n].max)}` : '—',
  w[n] ? fmt(w[n].median) : (wmBin ? '—' : 'not built'), w[n] ? `${fmt(w[n].min)}–${fmt(w[n].max)}` : '—',
  a[n] && w[n] ? fmt(w[n].median / a[n].median, 2) : '—',
]);
console.log(`load average ${machine().loadavg_1_5_15.join(' ')}`);
console.log(`command time on ${PAGE}, whole process, warm daemon, median of ${RUNS}, ms`);
console.log(table(['command', 'agent-browser', 'ab min–max', 'waymark', 'wm min–max', 'waymark ÷ agent-browser'], rows));
for (const n of notes) console.log('note: ' + n);
console.log('wrote ' + writeResult(process.env.RESULT || 'command_time.json', { machine: machine(), page: PAGE, click: CLICK, interleave: INTERLEAVE, runs: RUNS, results, notes }));
