// outline_size: characters and tokens of each tool's page text on /big and
// on saved real pages:
//   agent-browser `snapshot -i` and `snapshot`
//   Playwright MCP `browser_snapshot` (whole text result, over stdio)
//   waymark `snapshot -i` and `snapshot --full` (when built)
// Tokens: chars/4, and o200k / cl100k counts from gpt-tokenizer.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  BASE_URL, BENCH_DIR, TMP_DIR, CHROMIUM, CHROME_FLAGS, ab, abClose, waymarkPath, wm, wmClose, wmStopDaemon,
  McpClient, mcpText, tokenizers, writeResult, table, machine,
} from './lib.mjs';

const PAGES = (process.env.PAGES || '/big /corpus/wikipedia-4.html /corpus/nytimes-1.html /corpus/theverge.html /corpus/mozilla-2.html /corpus/ietf-1.html /corpus/aclu.html /corpus/heise.html').split(/\s+/).filter(Boolean);
const S = 'bench-size';
const notes = [];
const enc = await tokenizers();
if (enc.error) notes.push('gpt-tokenizer unavailable: ' + enc.error);
const OUT = join(TMP_DIR, 'outlines');
mkdirSync(OUT, { recursive: true });

function measure(text) {
  const chars = [...text].length;
  return { chars, tok_chars4: Math.round(chars / 4), tok_o200k: enc.o200k ? enc.o200k(text) : null, tok_cl100k: enc.cl100k ? enc.cl100k(text) : null };
}
const results = {}; // page -> variant -> measure
function rec(page, variant, text) {
  (results[page] ||= {})[variant] = measure(text);
  writeFileSync(join(OUT, `${page.replace(/\W+/g, '_')}--${variant.replace(/\W+/g, '_')}.txt`), text);
}

// Playwright MCP over stdio, on the system Chromium, headless, isolated.
const mcpConfig = join(TMP_DIR, 'mcp-config.json');
writeFileSync(mcpConfig, JSON.stringify({
  browser: { browserName: 'chromium', isolated: true,
    launchOptions: { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: CHROME_FLAGS } },
}));
const mcp = new McpClient('node', [join(BENCH_DIR, 'node_modules/@playwright/mcp/cli.js'),
  '--config', mcpConfig, '--headless', '--isolated', '--no-sandbox', '--output-dir', join(TMP_DIR, 'mcp-out')]);
let mcpOK = true;
let wmBin = waymarkPath();
if (!wmBin) notes.push('waymark not built: no bin/waymark (WAYMARK_BIN) and no waymark on PATH; its columns are empty');

try {
  try { await mcp.init(); } catch (e) { mcpOK = false; notes.push('playwright MCP failed to start: ' + e.message); }
  for (const page of PAGES) {
    const url = BASE_URL + page;
    const o = ab(S, 'open', url);
    if (o.code === 0) {
      const i = ab(S, 'snapshot', '-i'); if (i.code === 0) rec(page, 'agent-browser -i', i.stdout); else notes.push(`agent-browser snapshot -i on ${page}: ${i.stderr.trim()}`);
      const f = ab(S, 'snapshot'); if (f.code === 0) rec(page, 'agent-browser full', f.stdout); else notes.push(`agent-browser snapshot on ${page}: ${f.stderr.trim()}`);
    } else notes.push(`agent-browser open ${page}: ${(o.stderr || o.stdout).trim()}`);

    if (mcpOK) {
      try {
        await mcp.callTool('browser_navigate', { url }, 120000);
        const r = await mcp.callTool('browser_snapshot', {}, 120000);
        if (r.isError) throw new Error(mcpText(r).slice(0, 300));
        rec(page, 'playwright-mcp', mcpText(r));
      } catch (e) { notes.push(`playwright MCP on ${page}: ${e.message.slice(0, 300)}`); }
    }

    if (wmBin) {
      const w = wm(wmBin, S, 'open', url);
      if (w.code === 0) {
        const i = wm(wmBin, S, 'snapshot', '-i'); if (i.code === 0) rec(page, 'waymark -i', i.stdout); else notes.push(`waymark snapshot -i on ${page}: ${i.stderr.trim().slice(0, 200)}`);
        const f = wm(wmBin, S, 'snapshot', '--full'); if (f.code === 0) rec(page, 'waymark --full', f.stdout); else notes.push(`waymark snapshot --full on ${page}: ${f.stderr.trim().slice(0, 200)}`);
      } else notes.push(`waymark open ${page}: ${(w.stderr || w.stdout).trim().slice(0, 200)}`);
    }
    process.stderr.write(`. ${page}\n`);
  }
} finally {
  abClose(S);
  await mcp.close();
  if (wmBin) { wmClose(wmBin, S); wmStopDaemon(wmBin); }
}

const variants = ['agent-browser -i', 'agent-browser full', 'playwright-mcp', 'waymark -i', 'waymark --full'];
const tokKey = enc.o200k ? 'tok_o200k' : 'tok_chars4';
const cell = (m) => (m ? `${m.chars} / ${m[tokKey]}` : (variants && wmBin ? '—' : 'not built'));
console.log(`outline size: characters / ${tokKey === 'tok_o200k' ? 'o200k tokens' : 'chars÷4 tokens'} (cl100k and chars÷4 are in the JSON)`);
console.log(table(['page', ...variants], PAGES.map(p => [p, ...variants.map(v => {
  const m = results[p]?.[v];
  if (m) return `${m.chars} / ${m[tokKey]}`;
  return v.startsWith('waymark') && !wmBin ? 'not built' : '—';
})])));
// Ratios between peers (tokens).
const rr = PAGES.map(p => {
  const r = results[p] || {};
  const q = (a, b) => (r[a] && r[b] ? (r[a][tokKey] / r[b][tokKey]).toFixed(2) : '—');
  return [p, q('playwright-mcp', 'agent-browser full'), q('agent-browser -i', 'agent-browser full'), q('waymark -i', 'agent-browser -i'), q('waymark --full', 'playwright-mcp')];
});
console.log('\ntoken ratios');
console.log(table(['page', 'pw-mcp ÷ ab full', 'ab -i ÷ ab full', 'waymark -i ÷ ab -i', 'waymark --full ÷ pw-mcp'], rr));
for (const n of notes) console.log('note: ' + n);
console.log('texts in ' + OUT);
console.log('wrote ' + writeResult('outline_size.json', { machine: machine(), pages: PAGES, tokenizer: 'gpt-tokenizer 4.0.0', results, notes }));
