// flowtiming: where each step of flow.mjs's 13 goes, for waymark beside the
// floor (bench/cmd/cdpfloor) of the same run. waymark's daemon, started with
// WAYMARK_TIMING=FILE (internal/timing), writes one line per span:
// "START_UNIX_MICROS DURATION_MICROS NAME"; each span is laid on the step
// whose process was running when it began (steps run one at a time).
import { readFileSync, existsSync } from 'node:fs';
import { median, fmt, table } from './lib.mjs';

// now: wall-clock time in ms (µs resolution), comparable with the spans'.
export const now = () => performance.timeOrigin + performance.now();

// The floor's steps that stand for each of the flow's 13 (cdpfloor's names).
const FLOOR = [
  ['open', 'open /products', 'open /products (navigate → load)'],
  ['look', 'look', 'look /products (captureSnapshot)'],
  ['click', 'click Trail Mug', 'click Trail Mug: move → load'],
  ['look', 'look', 'look product (captureSnapshot)'],
  ['fill', 'fill Quantity', 'fill Quantity (focus+select, insertText)'],
  ['click', 'click Add to cart', 'click Add to cart: press → body read'],
  ['look', 'look', 'look product after add (captureSnapshot)'],
  ['click', 'click Checkout', 'click Checkout: move → load'],
  ['look', 'look', 'look checkout (captureSnapshot)'],
  ['fill', 'fill Full name', 'fill #name'],
  ['fill', 'fill Email', 'fill #email'],
  ['fill', 'fill Account password', 'fill #password'],
  ['look', 'look', 'look checkout filled (captureSnapshot)'],
];

// floorSteps turns one cdpfloor flow (its JSON line) into the 13 steps.
export function floorSteps(got) {
  if (!Array.isArray(got)) throw new Error('cdpfloor: ' + JSON.stringify(got));
  const by = Object.fromEntries(got.map(s => [s.name, s.ms]));
  return FLOOR.map(([kind, what, name]) => {
    if (!(name in by)) throw new Error('cdpfloor: no step ' + name);
    return { kind, what, ms: by[name], tokens: 0, chars: 0, text: '' };
  });
}

// The columns, each from the spans of one step (ms). The inner call is the
// one the CLI run in the daemon made (snapshot, act, open).
const COLS = [
  ['front', 'process start, socket, exit (wall − daemon)'],
  ['cli', 'CLI in the daemon (parse, config, in-memory dial, print)'],
  ['lane', 'lane wait'],
  ['pending', 'await pending (the last action\'s settle)'],
  ['enter', 'enter, besides (tab, health check)'],
  ['probe', 'enter: the health probe (one renderer round trip; none when the renderer answered just now; an action waits only for what is left of it after its plan, which it runs beside)'],
  ['plan', 'act: plan (find the element)'],
  ['popups', 'act: popups, history entry'],
  ['input', 'act: input (CDP)'],
  ['settle', 'act: settle (until known)'],
  ['outcome', 'act: outcome'],
  ['capture', 'look: captureSnapshot (CDP)'],
  ['beside', 'look: wait for what is asked beside'],
  ['build', 'look: outline build'],
  ['render', 'look: render, changes'],
  ['other', 'rest of the call (open, …)'],
  ['bg', 'background settle it left (not in its wall)'],
];

function spansOf(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => {
    const [s, d, ...name] = l.split(' ');
    return { at: Number(s) / 1000, ms: Number(d) / 1000, name: name.join(' ') };
  });
}

function phases(spans) {
  const sum = (re) => spans.filter(s => re.test(s.name)).reduce((a, s) => a + s.ms, 0);
  const outer = sum(/^rpc cli\.run$/) + sum(/^reply cli\.run$/);
  const inner = spans.filter(s => /^rpc /.test(s.name) && s.name !== 'rpc cli.run');
  const innerMS = inner.reduce((a, s) => a + s.ms, 0) + sum(/^reply (?!cli\.run)/);
  const lane = sum(/^lane /);
  const pending = sum(/^await pending$/);
  // an action's probe runs beside its plan: what it waits for it after
  // the plan is "act: probe wait", outside "act: enter"
  const entryProbe = sum(/^enter: probe$/);
  const probe = entryProbe + sum(/^act: probe wait$/);
  const enter = sum(/^(look|act): enter$/) - pending - entryProbe;
  const p = {
    outer, cli: outer - innerMS - lane, lane, pending, enter, probe,
    plan: sum(/^act: plan$/), popups: sum(/^act: popups$/), input: sum(/^act: input$/),
    settle: sum(/^act: settle$/), outcome: sum(/^act: settle\+outcome$/) - sum(/^act: settle$/),
    capture: sum(/^cdp captureSnapshot$/), beside: sum(/^capture: wait beside$/), build: sum(/^outline build$/),
    render: sum(/^look: render$/), bg: sum(/^pending settle$/),
  };
  const parts = ['pending', 'enter', 'probe', 'plan', 'popups', 'input', 'settle', 'outcome', 'capture', 'beside', 'build', 'render']
    .reduce((a, k) => a + p[k], 0);
  // the lookWithViewport's own rest (frames, grafting) goes with "other"
  p.other = Math.max(0, innerMS - parts);
  return p;
}

// timingTable: per step, the medians over the runs of waymark's wall time,
// the floor's, and each phase; rows for the JSON, text for the console.
export function timingTable(file, wmFlows, floorFlows) {
  const spans = spansOf(file);
  const per = []; // step index -> [{wall, ...phases}]
  for (const f of wmFlows) {
    f.steps.forEach((st, k) => {
      if (st.at == null) return;
      const mine = spans.filter(s => s.at >= st.at && s.at < st.end);
      const p = phases(mine);
      p.front = st.ms - p.outer;
      p.wall = st.ms;
      (per[k] ||= []).push(p);
    });
  }
  const rows = per.map((ps, k) => {
    const r = { step: `${k + 1} ${wmFlows[0].steps[k].what}`, wall: median(ps.map(p => p.wall)) };
    const fl = floorFlows.map(f => f.steps[k]?.ms).filter(x => x != null);
    r.floor = fl.length ? median(fl) : null;
    for (const [c] of COLS) r[c] = median(ps.map(p => p[c]));
    return r;
  });
  const total = { step: 'flow (sum of medians)' };
  for (const c of ['wall', 'floor', ...COLS.map(([c]) => c)]) total[c] = rows.reduce((a, r) => a + (r[c] || 0), 0);
  const all = [...rows, total];
  const cols = ['wall', 'floor', ...COLS.map(([c]) => c)];
  const text = table(['step (ms)', 'waymark', 'floor', ...COLS.map(([c]) => c)],
    all.map(r => [r.step, ...cols.map(c => (r[c] == null ? '—' : fmt(r[c], 1)))])) +
    (total.floor ? `\nwaymark less its processes (wall − front) ÷ floor: ${fmt((total.wall - total.front) / total.floor, 2)}` +
      `; its 13 processes (front): ${fmt(total.front, 0)} ms` : '') +
    '\ncolumns: ' + COLS.map(([c, d]) => `${c} = ${d}`).join('; ');
  return { rows: all, columns: Object.fromEntries(COLS), text, spans: spans.length };
}
