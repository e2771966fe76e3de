// changes_size: how much a look after an action on the same page costs
// beside that page's whole look (o200k tokens), per tool and page:
//
//   open PAGE; look (the whole look); the page's actions; look again
//
// A look is waymark `snapshot -i --changes` (the first after an open is
// whole), also with --full (the whole page rather than the screen), and
// agent-browser `snapshot -i --delta` (the same). The pages: the
// demo shop's product page (fill Quantity, click "Add to cart": the flow's
// step 7) and checkout (fill three fields: the flow's step 13), /big (click
// "Select item 1": its status line changes) and saved pages (fill the first
// text field on screen). Every ref comes from the look before it, as an
// agent's would. Env: PAGES (names below), TOOLS (waymark agent-browser),
// WAYMARK_BIN, WAYMARK_BASE_BIN (another build, as "waymark-base": a
// change's before and after in one run).
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TMP_DIR, AB_BIN, run, abClose, waymarkPath, wmClose, wmStopDaemon, tokenizers, writeResult, table, machine } from './lib.mjs';

const DEMO = process.env.DEMO_URL, BENCH = process.env.BASE_URL;
const S = 'bench-changes';
const enc = await tokenizers();
if (enc.error) throw new Error('gpt-tokenizer unavailable: ' + enc.error);
const OUT = join(TMP_DIR, 'changes');
mkdirSync(OUT, { recursive: true });
const notes = [];

// A page: where it is and what the agent does on it. An action names the
// line of the element it acts on (a regexp on the look's lines).
const field = /^\s*- (textbox|searchbox|combobox)\b.*\bref=e\d+/;
const SCENARIOS = {
  'demo product': { url: () => DEMO + '/products/1', actions: [['fill', /spinbutton "Quantity"/, '2'], ['click', /button "Add to cart"/]] },
  'demo checkout': { url: () => DEMO + '/checkout', actions: [['fill', /textbox "Full name"/, 'Ann Example'], ['fill', /textbox "Email"/, 'ann@example.com'], ['fill', /textbox "Account password"/, 'demo-pass-123']] },
  '/big': { url: () => BENCH + '/big', actions: [['click', /button "Select item 1"/]] },
};
for (const p of ['wikipedia-4', 'nytimes-1', 'heise', 'aclu', 'yahoo-3']) {
  SCENARIOS[p] = { url: () => `${BENCH}/corpus/${p}.html`, actions: [['fill', field, 'waymark tokens']] };
}
const PAGES = (process.env.PAGES || Object.keys(SCENARIOS).join(',')).split(',').map(s => s.trim()).filter(Boolean);

function cli(bin, env) {
  return (args) => {
    const r = run(bin, ['--session', S, ...args], { timeoutMs: 120000, env });
    if (r.code !== 0) throw new Error(`${args.join(' ')}: exit ${r.code ?? r.signal}: ${(r.stderr || r.stdout).trim().slice(0, 300)}`);
    return r.stdout + r.stderr;
  };
}
const tools = {};
const TOOLS = (process.env.TOOLS || 'waymark agent-browser').split(/\s+/).filter(Boolean);
const wmBin = waymarkPath();
const baseBin = process.env.WAYMARK_BASE_BIN;
const baseEnv = baseBin ? { WAYMARK_SOCKET: join(TMP_DIR, 'changes-base.sock') } : undefined;
const wmVariants = (name, call) => ({
  [`${name} -i`]: { call, whole: ['snapshot', '-i', '--changes'], changes: ['snapshot', '-i', '--changes'] },
  [`${name} -i --full`]: { call, whole: ['snapshot', '-i', '--full', '--changes'], changes: ['snapshot', '-i', '--full', '--changes'] },
});
if (TOOLS.includes('waymark') && wmBin) Object.assign(tools, wmVariants('waymark', cli(wmBin)));
if (baseBin) Object.assign(tools, wmVariants('waymark-base', cli(baseBin, baseEnv)));
// agent-browser's first --delta look after an open is whole, as in the flow.
if (TOOLS.includes('agent-browser')) tools['agent-browser -i --delta'] = { call: cli(AB_BIN), whole: ['snapshot', '-i', '--delta'], changes: ['snapshot', '-i', '--delta'] };

const refIn = (text, re) => {
  const line = text.split('\n').find(l => re.test(l) && /\bref=e\d+/.test(l));
  if (!line) throw new Error(`no line matches ${re}`);
  return '@' + line.match(/\bref=(e\d+)/)[1];
};

const results = {}; // page -> tool -> {whole, changes, ratio}
try {
  for (const page of PAGES) {
    const sc = SCENARIOS[page];
    if (!sc) { notes.push(`no such page: ${page}`); continue; }
    for (const [name, t] of Object.entries(tools)) {
      try {
        t.call(['open', sc.url()]);
        const whole = t.call(t.whole);
        for (const [verb, re, value] of sc.actions) {
          const ref = refIn(whole, re);
          t.call(value === undefined ? [verb, ref] : [verb, ref, value]);
        }
        const changes = t.call(t.changes);
        const w = enc.o200k(whole), c = enc.o200k(changes);
        (results[page] ||= {})[name] = { whole: w, changes: c, ratio: c / w };
        const f = join(OUT, `${page.replace(/\W+/g, '_')}--${name.replace(/\W+/g, '_')}`);
        writeFileSync(f + '.whole.txt', whole);
        writeFileSync(f + '.changes.txt', changes);
      } catch (e) { notes.push(`${name} on ${page}: ${e.message.slice(0, 300)}`); }
    }
    process.stderr.write(`. ${page}\n`);
  }
} finally {
  if (tools['agent-browser -i --delta']) abClose(S);
  if (wmBin && TOOLS.includes('waymark')) { wmClose(wmBin, S); wmStopDaemon(wmBin); }
  if (baseBin) {
    run(baseBin, ['--session', S, 'close'], { timeoutMs: 20000, env: baseEnv });
    run(baseBin, ['daemon', 'stop'], { timeoutMs: 20000, env: baseEnv });
  }
}

const names = Object.keys(tools);
console.log('a look after an action on the same page: o200k tokens of the whole look → of the look after, and the share');
console.log(table(['page', ...names], PAGES.map(p => [p, ...names.map(n => {
  const r = results[p]?.[n];
  return r ? `${r.whole} → ${r.changes} (${(100 * r.ratio).toFixed(1)} %)` : '—';
})])));
for (const n of notes) console.log('note: ' + n);
console.log('texts in ' + OUT);
console.log('wrote ' + writeResult('changes_size.json', { machine: machine(), pages: PAGES, tokenizer: 'gpt-tokenizer 4.0.0 o200k_base', results, notes }));
