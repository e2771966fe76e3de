// flow: an agent's whole task on the demo shop, the same 13 steps for each
// tool, interleaved, RUNS times:
//
//   1 open /products        2 look               3 click "Trail Mug"
//   4 look                  5 fill Quantity 2    6 click "Add to cart"
//   7 look                  8 click "Checkout"   9 look
//  10-12 fill Full name, Email, Account password 13 look
//
// "look" is waymark `snapshot -i --changes` (WM_CHANGES=0: plain
// `snapshot -i`), agent-browser `snapshot -i --delta` (AB_DELTA=0: plain
// `snapshot -i`) and Playwright MCP `browser_snapshot`: each tool's
// cheapest whole look, the two CLIs printing only what changed since the
// last look when the page is the same.
// Every step takes the refs it needs from the looks the tool returned in the
// flow, the last first, as an agent would. Wall time is the sum of the 13 steps (whole process for the
// CLIs, the tool call's round trip for MCP); the agent's own thinking time
// is not in it. Tokens are o200k (gpt-tokenizer, as outline_size.mjs) of all
// the text each step returned: stdout and stderr for the CLIs, the text
// content for MCP. After the flow, `get url` runs GETURL times per tool.
// Each tool keeps one warm session for the whole run (started before the
// first timed flow), so no flow pays for a browser start.
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import {
  BASE_URL, BENCH_DIR, TMP_DIR, CHROMIUM, CHROME_FLAGS, AB_BIN, median, run, ab, abClose, waymarkPath,
  wmClose, wmStopDaemon, McpClient, mcpText, tokenizers, writeResult, fmt, table, machine,
} from './lib.mjs';
import { now, floorSteps, timingTable } from './flowtiming.mjs';

const RUNS = Number(process.env.RUNS || 7);
const GETURL = Number(process.env.GETURL || 5);
const AB_DELTA = process.env.AB_DELTA !== '0';
const WM_CHANGES = process.env.WM_CHANGES !== '0';
const TOOLS = (process.env.TOOLS || 'waymark agent-browser playwright-mcp floor').split(/\s+/).filter(Boolean);
// WM_TIMING (default 1): waymark's daemon writes where each command's time
// goes (WAYMARK_TIMING, internal/timing), laid over each step's wall time.
const WM_TIMING = process.env.WM_TIMING !== '0';
const S = 'bench-flow';
const notes = [];
const enc = await tokenizers();
if (enc.error) throw new Error('gpt-tokenizer unavailable: ' + enc.error);
const OUT = join(TMP_DIR, 'flow');
mkdirSync(OUT, { recursive: true });
const tokens = (s) => enc.o200k(s);

// A step's kind, for the per-command figures.
const LOOK = 'look', CLICK = 'click', FILL = 'fill', OPEN = 'open';

// cli: a tool driven by a command-line program, one process per command.
function cli(bin, look, env) {
  return {
    async call(args) {
      const at = now();
      const r = run(bin, ['--session', S, ...args], { timeoutMs: 60000, env });
      const end = now();
      if (r.code !== 0) throw new Error(`${args.join(' ')}: exit ${r.code ?? r.signal}: ${(r.stderr || r.stdout).trim().slice(0, 300)}`);
      return { ms: r.ms, text: r.stdout + r.stderr, at, end };
    },
    open: (url) => ['open', url],
    look: () => look,
    click: (ref) => ['click', ref],
    fill: (ref, v) => ['fill', ref, v],
    geturl: () => ['get', 'url'],
  };
}

// An MCP server over stdio (Playwright MCP's, waymark's): each step is one
// tool call; names maps the flow's steps to the server's tools.
function mcpTool(client, names) {
  const t0 = () => process.hrtime.bigint();
  const call = async ([name, args]) => {
    const s = t0();
    const r = await client.callTool(name, args, 60000);
    const ms = Number(process.hrtime.bigint() - s) / 1e6;
    const text = mcpText(r);
    if (r.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
    return { ms, text };
  };
  const bare = (ref) => ref.replace(/^@/, '');
  return {
    call,
    open: (url) => [names.open, { url }],
    look: () => [names.look, names.lookArgs || {}],
    click: (ref, what) => [names.click, { target: bare(ref), ...(names.what ? { element: what } : {}) }],
    fill: (ref, v, what) => [names.fill, { target: bare(ref), [names.value]: v, ...(names.what ? { element: what } : {}) }],
    geturl: null, // no such tool; the URL comes with every reply
  };
}
const mcps = []; // the MCP clients, to start and to close

// flow runs the 13 steps once; returns the steps with their time and text.
async function flow(tool) {
  const steps = [];
  const looks = [];
  if (tool.floor) return tool.floor();
  // shows: what a look must show to have read the page the last action
  // left (settled), as an agent needs to see it: the product page after the
  // link, the cart's answer after Add to cart (the page writes it once its
  // fetch is answered), the form after Checkout. A look that misses it read
  // the page before the action's effect (counted as "stale looks").
  const step = async (kind, what, argv, shows) => {
    if (kind === LOOK && tool.replyLooks && steps.length) {
      // The last action's reply carried the look: nothing to call.
      const text = steps.at(-1).text;
      steps.push({ kind, what: 'look (the reply above)', ms: 0, tokens: 0, chars: 0, text: '', stale: shows ? !shows.test(text) : undefined });
      looks.push(text);
      return text;
    }
    const r = await tool.call(argv);
    const stale = shows ? !shows.test(r.text) : undefined;
    steps.push({ kind, what, ms: r.ms, tokens: tokens(r.text), chars: r.text.length, text: r.text, at: r.at, end: r.end, stale });
    if (kind === LOOK) looks.push(r.text);
    return r.text;
  };
  // ref finds a ref as an agent does, in the looks it read so far, the last
  // first: a look that prints only what changed (or, for waymark, a region
  // of a new page as unchanged) leaves the other refs where the agent read
  // them. A ref that is no longer valid fails the next command.
  const ref = (needle) => {
    for (const look of looks.toReversed()) {
      const line = look.split("\n").find(l => l.includes(needle) && /\bref=\w+/.test(l));
      if (line) return "@" + line.match(/\bref=(\w+)/)[1];
    }
    throw new Error(`no ref for ${needle} in the looks:\n${looks.at(-1)?.slice(0, 2000)}`);
  };
  await step(OPEN, 'open /products', tool.open(BASE_URL + '/products'));
  await step(LOOK, 'look', tool.look());
  await step(CLICK, 'click Trail Mug', tool.click(ref('link "Trail Mug"'), 'Trail Mug link'));
  await step(LOOK, 'look', tool.look(), /spinbutton "Quantity"/);
  const qty = ref('spinbutton "Quantity"'), add = ref('button "Add to cart"'), checkout = ref('link "Checkout"');
  await step(FILL, 'fill Quantity', tool.fill(qty, '2', 'Quantity'));
  await step(CLICK, 'click Add to cart', tool.click(add, 'Add to cart button'));
  await step(LOOK, 'look', tool.look(), /Cart \(2\)|Added 2/);
  await step(CLICK, 'click Checkout', tool.click(checkout, 'Checkout link'));
  await step(LOOK, 'look', tool.look(), /textbox "Full name"/);
  const name = ref('textbox "Full name"'), email = ref('textbox "Email"'), pw = ref('textbox "Account password"');
  await step(FILL, 'fill Full name', tool.fill(name, 'Ann Example', 'Full name'));
  await step(FILL, 'fill Email', tool.fill(email, 'ann@example.com', 'Email'));
  await step(FILL, 'fill Account password', tool.fill(pw, 'demo-pass-123', 'Account password'));
  await step(LOOK, 'look', tool.look());
  return steps;
}

const tools = {};
const wmBin = waymarkPath();
const timingFile = join(TMP_DIR, 'flow-timing.log');
if (TOOLS.includes('waymark')) {
  if (wmBin && WM_TIMING) {
    // The daemon reads WAYMARK_TIMING when it starts: one of this run's.
    wmStopDaemon(wmBin);
    rmSync(timingFile, { force: true });
  }
  if (wmBin) tools.waymark = cli(wmBin, WM_CHANGES ? ['snapshot', '-i', '--changes'] : ['snapshot', '-i'], WM_TIMING ? { WAYMARK_TIMING: timingFile } : undefined);
  else notes.push('waymark not built: no bin/waymark (WAYMARK_BIN) and no waymark on PATH; its column is empty');
}
// WAYMARK_BASE_BIN: another build of waymark (the one before a change), run
// as the tool "waymark-base" on a daemon of its own, so that a change's
// before and after are measured in the same interleaved run.
const baseBin = process.env.WAYMARK_BASE_BIN;
const baseEnv = baseBin ? { WAYMARK_SOCKET: join(TMP_DIR, 'flow-base.sock') } : undefined;
if (baseBin) tools['waymark-base'] = cli(baseBin, WM_CHANGES ? ['snapshot', '-i', '--changes'] : ['snapshot', '-i'], baseEnv);
if (TOOLS.includes('agent-browser')) tools['agent-browser'] = cli(AB_BIN, AB_DELTA ? ['snapshot', '-i', '--delta'] : ['snapshot', '-i']);
if (TOOLS.includes('playwright-mcp')) {
  const mcpConfig = join(TMP_DIR, 'mcp-config.json');
  writeFileSync(mcpConfig, JSON.stringify({
    browser: { browserName: 'chromium', isolated: true,
      launchOptions: { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: CHROME_FLAGS } },
  }));
  const pwMcp = new McpClient('node', [join(BENCH_DIR, 'node_modules/@playwright/mcp/cli.js'),
    '--config', mcpConfig, '--headless', '--isolated', '--no-sandbox', '--output-dir', join(TMP_DIR, 'mcp-out')]);
  mcps.push(pwMcp);
  tools['playwright-mcp'] = mcpTool(pwMcp, { open: 'browser_navigate', look: 'browser_snapshot', click: 'browser_click', fill: 'browser_type', value: 'text', what: true });
}
// waymark-mcp (TOOLS, not in the default set): waymark's MCP server
// (`waymark mcp`, a session of its own on the same daemon) doing the same
// steps with no process per step, the path an MCP agent takes. Each action's
// reply carries its own look (the changes since the client's last look), so
// it does more per action than the CLI's; its look steps are the snapshot
// tool's interactive whole outline (MCP has no --changes look to ask for).
// WM_MCP_LOOKS=reply: as an MCP agent works, each look is the one the
// last call's reply carried (no call, no tokens of its own; a stale one is
// still counted).
const WM_MCP_LOOKS = process.env.WM_MCP_LOOKS || 'snapshot';
if (TOOLS.includes('waymark-mcp') && wmBin) {
  // The bench is the person here: its MCP client cannot ask, so the
  // config lets Add to cart's submit through ([mcp] submits), as the CLI's
  // steps are let through.
  const cfg = join(TMP_DIR, 'wm-mcp-config');
  mkdirSync(join(cfg, 'waymark'), { recursive: true });
  writeFileSync(join(cfg, 'waymark', 'config.toml'), '[mcp]\nsubmits = "allow"\n');
  const wmMcp = new McpClient(wmBin, ['mcp'], { env: { XDG_CONFIG_HOME: cfg, ...(WM_TIMING ? { WAYMARK_TIMING: timingFile } : {}) } });
  mcps.push(wmMcp);
  tools['waymark-mcp'] = mcpTool(wmMcp, { open: 'navigate', look: 'snapshot', lookArgs: { interactive: true }, click: 'click', fill: 'fill', value: 'value' });
  tools['waymark-mcp'].replyLooks = WM_MCP_LOOKS === 'reply';
  notes.push(`waymark-mcp's looks: ${WM_MCP_LOOKS === 'reply' ? 'the look each reply carried (no call)' : 'the snapshot tool (interactive)'}`);
}
// floor: bench/cmd/cdpfloor, the same steps done the cheapest way CDP
// allows (on a demo shop it serves itself), one flow per line it reads.
let floorProc = null;
if (TOOLS.includes('floor')) {
  const bin = join(TMP_DIR, 'cdpfloor');
  const b = spawnSync('go', ['build', '-o', bin, './bench/cmd/cdpfloor'], { cwd: join(BENCH_DIR, '..'), encoding: 'utf8' });
  if (b.status !== 0) notes.push('floor not built: ' + (b.stderr || '').slice(0, 300));
  else {
    floorProc = spawn(bin, ['-serve', '-chromium', CHROMIUM], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: floorProc.stdout })[Symbol.asyncIterator]();
    const next = async () => (await lines.next()).value;
    const ready = await next();
    if (ready !== 'ready') throw new Error('cdpfloor: ' + ready);
    tools.floor = {
      call: async () => ({ ms: 0, text: '' }), open: () => [], geturl: null,
      floor: async () => { floorProc.stdin.write('run\n'); return floorSteps(JSON.parse(await next())); },
    };
  }
}
const names = Object.keys(tools);

const flows = Object.fromEntries(names.map(n => [n, []]));  // tool -> [{ms, tokens, steps}]
const geturl = Object.fromEntries(names.map(n => [n, []])); // tool -> [ms]
const bare = []; // per run: 13 empty processes (ms)
try {
  // Warm every tool: a daemon and a browser (or the MCP server and its
  // browser) with one page open, none of it timed.
  for (const c of mcps) await c.init();
  for (const n of names) await tools[n].call(tools[n].open(BASE_URL + '/'));
  for (let i = 0; i < RUNS; i++) {
    // Rotate the order so no tool always runs first (or right after another).
    const order = names.map((_, k) => names[(k + i) % names.length]);
    for (const n of order) {
      try {
        const steps = await flow(tools[n]);
        const ms = steps.reduce((a, s) => a + s.ms, 0), tok = steps.reduce((a, s) => a + s.tokens, 0);
        flows[n].push({ ms, tokens: tok, steps: steps.map(({ text, ...s }) => s) });
        if (i === 0) writeFileSync(join(OUT, `${n}.txt`), steps.map((s, k) => `### ${k + 1} ${s.what} (${s.tokens} tokens, ${fmt(s.ms)} ms)\n${s.text}`).join('\n\n') + '\n');
        if (tools[n].geturl) for (let k = 0; k < GETURL; k++) geturl[n].push((await tools[n].call(tools[n].geturl())).ms);
      } catch (e) { notes.push(`${n}, run ${i + 1}: ${e.message.slice(0, 500)}`); }
    }
    // 13 processes that do nothing (/bin/true), for what a process alone
    // costs on this machine now (every CLI's step pays one).
    bare.push([...Array(13)].reduce((a) => a + run('true', []).ms, 0));
    process.stderr.write(`. run ${i + 1}/${RUNS}\n`);
  }
} finally {
  if (floorProc) floorProc.stdin.end();
  if (tools['agent-browser']) abClose(S);
  for (const c of mcps) await c.close();
  if (tools.waymark) { wmClose(wmBin, S); wmStopDaemon(wmBin); }
  if (baseBin) {
    run(baseBin, ['--session', S, 'close'], { timeoutMs: 20000, env: baseEnv });
    run(baseBin, ['daemon', 'stop'], { timeoutMs: 20000, env: baseEnv });
  }
}

// Per tool: medians of the whole flow and of each kind of step.
const stats = {};
for (const n of names) {
  const f = flows[n];
  if (!f.length) continue;
  const kind = (k) => median(f.flatMap(x => x.steps.filter(s => s.kind === k).map(s => s.ms)));
  stats[n] = {
    flows: f.length, ms: median(f.map(x => x.ms)), tokens: median(f.map(x => x.tokens)),
    open: kind(OPEN), look: kind(LOOK), click: kind(CLICK), fill: kind(FILL), geturl: median(geturl[n]),
  };
}
const col = (n, key, d = 1) => (stats[n] ? fmt(stats[n][key], d) : '—');
const ratio = (key, a, b) => (stats[a] && stats[b] ? fmt(stats[a][key] / stats[b][key], 2) : '—');
const keys = [['ms', 'flow wall time (ms)', 0], ['tokens', 'flow tokens (o200k)', 0], ['geturl', '`get url` (ms)', 1],
  ['look', 'look (ms)', 1], ['click', 'click (ms)', 1], ['fill', 'fill (ms)', 1], ['open', 'open (ms)', 1]];
const ab_ = 'agent-browser', pw = 'playwright-mcp';
console.log(`13-step shop flow on the demo shop, median of ${RUNS} interleaved runs (per-step rows: median over every such step)`);
console.log(`looks: waymark snapshot -i${WM_CHANGES ? ' --changes' : ''}, agent-browser snapshot -i${AB_DELTA ? ' --delta' : ''}; load average at the end ${machine().loadavg_1_5_15.join(' ')}`);
const baseCols = baseBin ? ['waymark-base ÷ agent-browser'] : [];
console.log(table(['', ...names, 'waymark ÷ agent-browser', 'waymark ÷ Playwright MCP', ...baseCols],
  keys.map(([k, label, d]) => [label, ...names.map(n => col(n, k, d)), ratio(k, 'waymark', ab_), ratio(k, 'waymark', pw),
    ...(baseBin ? [ratio(k, 'waymark-base', ab_)] : [])])));
// Stale looks: a look that did not show what the last action left on the
// page (flow's shows), with the steps where it happened. A tool that
// answers before the page has taken in an action's effect looks faster
// than one that waits for it; this says which did.
const staleLine = names.filter(n => flows[n].length && n !== 'floor').map(n => {
  const checked = flows[n].flatMap(x => x.steps.map((s, k) => ({ ...s, k: k + 1 })).filter(s => s.stale !== undefined));
  const missed = checked.filter(s => s.stale);
  const where = [...new Set(missed.map(s => s.k))].map(k => `step ${k} ×${missed.filter(s => s.k === k).length}`).join(', ');
  stats[n].staleLooks = missed.length; stats[n].checkedLooks = checked.length;
  return `${n} ${missed.length} of ${checked.length}${where ? ` (${where})` : ''}`;
});
console.log(`stale looks (a look after an action that did not show its effect on the page): ${staleLine.join('; ')}`);
if (stats.floor) console.log(`waymark ÷ floor: ${ratio('ms', 'waymark', 'floor')}; agent-browser ÷ floor: ${ratio('ms', ab_, 'floor')}`);
console.log(`13 processes that do nothing (/bin/true, spawned as the CLIs are): ${fmt(median(bare), 0)} ms (median of ${bare.length})`);
let timing = null;
if (tools.waymark && WM_TIMING && flows.waymark.length) {
  timing = timingTable(timingFile, flows.waymark, flows.floor || []);
  console.log('\nwhere each step\'s ms go (medians over the runs; waymark\'s spans from WAYMARK_TIMING, the floor from cdpfloor in the same run):');
  console.log(timing.text);
}
for (const n of notes) console.log('note: ' + n);
console.log('texts of the first run in ' + OUT);
console.log('wrote ' + writeResult('flow.json', { machine: machine(), runs: RUNS, ab_delta: AB_DELTA, wm_changes: WM_CHANGES, timing: timing && timing.rows, bare_13_processes_ms: bare, tokenizer: 'gpt-tokenizer 4.0.0 o200k_base', stats, flows, geturl, notes }));
