// Shared helpers for the bench scripts. Settings come from lib/env.sh
// through the environment (BASE_URL, AB_BIN, BENCH_CHROME_FLAGS_JSON, ...).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = join(BENCH_DIR, 'results');
export const TMP_DIR = join(RESULTS_DIR, 'tmp');
mkdirSync(TMP_DIR, { recursive: true });

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROME_FLAGS = JSON.parse(process.env.BENCH_CHROME_FLAGS_JSON || '[]');
export const AB_BIN = process.env.AB_BIN;
export const BASE_URL = process.env.BASE_URL;

export function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function ms(t0) { return Number(process.hrtime.bigint() - t0) / 1e6; }

// run: one command, bounded in time; returns {ms, code, stdout, stderr}.
export function run(cmd, args, { timeoutMs = 60000, env } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, {
    encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 << 20,
    env: env ? { ...process.env, ...env } : process.env,
  });
  const dt = ms(t0);
  return { ms: dt, code: r.status, signal: r.signal, stdout: r.stdout || '', stderr: r.stderr || '', error: r.error };
}

export function mustRun(cmd, args, opts) {
  const r = run(cmd, args, opts);
  if (r.code !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.code ?? r.signal}: ${r.stderr.trim() || r.stdout.trim()}`);
  }
  return r;
}

// agent-browser, on a named session.
export function ab(session, ...args) { return run(AB_BIN, ['--session', session, ...args]); }
export function abClose(session) { run(AB_BIN, ['--session', session, 'close'], { timeoutMs: 20000 }); }

// waymark: path from WAYMARK_BIN (default /work/main/bin/waymark) or PATH.
export function waymarkPath() {
  const p = process.env.WAYMARK_BIN || '/work/main/bin/waymark';
  if (existsSync(p)) return p;
  const w = spawnSync('sh', ['-c', 'command -v waymark'], { encoding: 'utf8' });
  if (w.status === 0 && w.stdout.trim()) return w.stdout.trim();
  return null;
}
export function wm(bin, session, ...args) { return run(bin, ['--session', session, ...args]); }
export function wmClose(bin, session) {
  run(bin, ['--session', session, 'close'], { timeoutMs: 20000 });
}
// wmStopDaemon: asks the daemon to stop, then kills it by the pid it reports.
export function wmStopDaemon(bin) {
  const st = run(bin, ['daemon', 'status', '--json'], { timeoutMs: 10000 });
  let pid = null;
  try { pid = JSON.parse(st.stdout).data.pid; } catch {}
  run(bin, ['daemon', 'stop'], { timeoutMs: 20000 });
  // kill it only if that pid is still the waymark binary (never a reused pid)
  if (pid) {
    try {
      if (realpathSync(`/proc/${pid}/exe`) === realpathSync(bin)) process.kill(pid, 'SIGTERM');
    } catch {}
  }
}

// findRef: the ref of the line that contains `needle` in a snapshot text
// (agent-browser writes [ref=e12], others may write @e12).
export function findRef(snapshot, needle) {
  for (const line of snapshot.split('\n')) {
    if (!line.includes(needle)) continue;
    const m = line.match(/\[ref=(e\d+)\]/) || line.match(/@(e\d+)\b/) || line.match(/\bref[=:]\s*"?(e\d+)/);
    if (m) return '@' + m[1];
  }
  return null;
}

// launchPlaywright: the system Chromium under playwright-core.
export async function launchPlaywright() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: CHROME_FLAGS, timeout: 60000,
  });
}

let enc = null;
export async function tokenizers() {
  if (enc) return enc;
  enc = {};
  try {
    const o = await import('gpt-tokenizer/encoding/o200k_base');
    const c = await import('gpt-tokenizer/encoding/cl100k_base');
    enc.o200k = (s) => o.encode(s, { disallowedSpecial: new Set() }).length;
    enc.cl100k = (s) => c.encode(s, { disallowedSpecial: new Set() }).length;
  } catch (e) {
    enc.error = String(e);
  }
  return enc;
}

export function writeResult(name, data) {
  const p = join(RESULTS_DIR, name);
  writeFileSync(p, JSON.stringify(data, null, 2) + '\n');
  return p;
}

export function fmt(x, d = 1) { return Number.isFinite(x) ? x.toFixed(d) : '—'; }

export function table(headers, rows) {
  const w = headers.map((h, i) => Math.max(String(h).length, ...rows.map(r => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(w[i]) : String(c).padStart(w[i]))).join('  ');
  return [line(headers), w.map(n => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

export function machine() {
  return {
    date: new Date().toISOString(),
    nproc: (spawnSync('nproc', [], { encoding: 'utf8' }).stdout || '').trim(),
    chromium: (spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout || '').trim(),
    node: process.version,
    loadavg_1_5_15: loadavg().map(x => Number(x.toFixed(2))),
  };
}

// A tiny MCP (JSON-RPC 2.0 over stdio, newline-delimited) client.
export class McpClient {
  constructor(cmd, args, { env } = {}) {
    this.proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env }, detached: true });
    this.nextId = 1;
    this.pending = new Map();
    this.buf = '';
    this.stderr = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (d) => {
      this.buf += d;
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i).trim();
        this.buf = this.buf.slice(i + 1);
        if (!line) continue;
        let msg;
        try { msg = JSON.parse(line); } catch { continue; }
        if (msg.id != null && this.pending.has(msg.id)) {
          const { resolve, reject, timer } = this.pending.get(msg.id);
          clearTimeout(timer);
          this.pending.delete(msg.id);
          msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result);
        }
      }
    });
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
  }
  request(method, params = {}, timeoutMs = 60000) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.pending.delete(id); reject(new Error(`MCP ${method} timed out; stderr: ${this.stderr.slice(-500)}`)); }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }
  notify(method, params = {}) {
    this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  }
  async init() {
    const r = await this.request('initialize', {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'waymark-bench', version: '0' },
    });
    this.notify('notifications/initialized');
    return r;
  }
  async callTool(name, args, timeoutMs) {
    return this.request('tools/call', { name, arguments: args }, timeoutMs);
  }
  async close() {
    try { this.proc.stdin.end(); } catch {}
    const exited = new Promise((r) => this.proc.once('exit', r));
    const t = setTimeout(() => { try { process.kill(-this.proc.pid, 'SIGTERM'); } catch {} }, 5000);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
    clearTimeout(t);
    try { process.kill(-this.proc.pid, 'SIGKILL'); } catch {}
  }
}

export function mcpText(result) {
  return (result?.content || []).filter(c => c.type === 'text').map(c => c.text).join('\n');
}
