// popuphold: can a new tab (a popup) be held before its first request and
// guarded, without the browser-wide Fetch interception waymark keeps on for
// new tabs (issue 32, option b)? The browser target auto-attaches every new
// target with waitForDebuggerOnStart (flatten), as Playwright does for
// popups; a second, ordinary flat session (as chromedp attaches) enables
// Fetch on the held popup, then the hold is released one of three ways:
//   own     Runtime.runIfWaitingForDebugger on the auto-attached session
//   other   the same on the second session
//   detach  Target.detachFromTarget of the auto-attached session
// and the popup's first document, paused on the second session, is failed
// as a refused one would be. What reaches the loopback server is counted.
//
//   node --experimental-websocket bench/js/popuphold.mjs        (Node 20)
//   REL=own node --experimental-websocket bench/js/popuphold.mjs
//
// Chromium 148, 2026-12-06: held, nothing reaches the server (window.open,
// a target=_blank link, a form POST into a new window); with "own", each
// first document pauses on the second session and, failed, never reaches
// the server. "other" releases only a popup in its opener's process (a
// noopener one stays held); "detach" releases none, and the opener, whose
// renderer is stopped while its same-process popup is held, stays stopped.
// Browser-level auto-attach takes flatten sessions only. So the release
// must be sent on the auto-attached session, which chromedp v0.23 neither
// routes nor lets a caller write to (browser.go drops messages of sessions
// it did not attach).
import http from 'node:http';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const hits = {};
const srv = http.createServer((req, res) => {
  const p = req.url.split('?')[0];
  hits[p] = (hits[p] || 0) + 1;
  res.setHeader('content-type', 'text/html');
  if (p === '/') res.end(`<a id=l href="/popup-link" target=_blank>link</a><form id=f method=post action="/popup-form" target=_blank><input name=a value=1><button>go</button></form>`);
  else res.end('<p>' + p);
});
await new Promise(r => srv.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${srv.address().port}`;
const ch = spawn(process.env.CHROMIUM || '/usr/bin/chromium', ['--headless=new', '--no-sandbox', '--remote-debugging-port=0',
  '--user-data-dir=' + join(tmpdir(), 'popuphold-' + process.pid), '--no-first-run', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
// The browser goes with this process, however it ends (a held popup can
// leave the opener stopped, and a call waiting on it unanswered).
const profile = join(tmpdir(), 'popuphold-' + process.pid);
process.on('exit', () => { ch.kill('SIGKILL'); rmSync(profile, { recursive: true, force: true }); });
process.on('unhandledRejection', e => console.log('  (unanswered: ' + e.message + ')'));
const wsURL = await new Promise((resolve, reject) => {
  let buf = '';
  ch.stderr.on('data', d => { buf += d; const m = buf.match(/DevTools listening on (ws:\S+)/); if (m) resolve(m[1]); });
  setTimeout(() => reject(new Error('no ws: ' + buf)), 15000);
});
const ws = new WebSocket(wsURL);
await new Promise(r => ws.onopen = r);
let id = 0; const waiting = new Map(); const listeners = [];
ws.onmessage = m => {
  const msg = JSON.parse(m.data);
  if (msg.id && waiting.has(msg.id)) { const w = waiting.get(msg.id); waiting.delete(msg.id); msg.error ? w.reject(new Error(JSON.stringify(msg.error))) : w.resolve(msg.result); return; }
  for (const l of [...listeners]) l(msg);
};
const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
  const i = ++id; waiting.set(i, { resolve, reject });
  setTimeout(() => { if (waiting.has(i)) { waiting.delete(i); reject(new Error('no answer to ' + method)); } }, 8000);
  ws.send(JSON.stringify({ id: i, method, params, ...(sessionId ? { sessionId } : {}) }));
});
const next = (pred, ms = 10000) => new Promise((resolve, reject) => {
  const l = msg => { if (pred(msg)) { listeners.splice(listeners.indexOf(l), 1); resolve(msg); } };
  listeners.push(l); setTimeout(() => reject(new Error('timeout')), ms);
});
const sleep = ms => new Promise(r => setTimeout(r, ms));

const { browserContextId } = await send('Target.createBrowserContext');
await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
const attachedP = next(m => m.method === 'Target.attachedToTarget' && m.params.targetInfo.type === 'page' && m.params.targetInfo.browserContextId === browserContextId);
const { targetId } = await send('Target.createTarget', { url: 'about:blank', browserContextId });
const a = await attachedP;
// Our own tab: released by detaching the auto-attached session, driven by an ordinary one.
await send('Target.detachFromTarget', { sessionId: a.params.sessionId });
const { sessionId: sess } = await send('Target.attachToTarget', { targetId, flatten: true });
await send('Page.enable', {}, sess);
const loaded = next(m => m.method === 'Page.loadEventFired' && m.sessionId === sess);
await send('Page.navigate', { url: base + '/' }, sess);
await loaded;
console.log('own tab: released by detaching the auto-attached session, loaded');

async function trial(name, path, trigger, release) {
  const att = next(m => m.method === 'Target.attachedToTarget' && m.params.targetInfo.type === 'page' && m.params.targetInfo.targetId !== targetId);
  const trig = trigger().catch(e => e); // the opener may be stopped while its popup is held
  const p = await att;
  const tid = p.params.targetInfo.targetId;
  // A guard on a second session, as chromedp would attach one.
  const { sessionId: g } = await send('Target.attachToTarget', { targetId: tid, flatten: true });
  const paused = next(m => m.method === 'Fetch.requestPaused' && m.sessionId === g);
  await send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] }, g);
  await sleep(300);
  const held = hits[path] || 0;
  // Not waited for: for a tab with a renderer of its own, the answer may
  // come only once its first document committed.
  let resumed;
  if (release === 'detach') resumed = send('Target.detachFromTarget', { sessionId: p.params.sessionId });
  else if (release === 'other') resumed = send('Runtime.runIfWaitingForDebugger', {}, g);
  else resumed = send('Runtime.runIfWaitingForDebugger', {}, p.params.sessionId);
  resumed = resumed.then(() => 'answered', e => e.message);
  let ev;
  try { ev = await paused; } catch (e) { console.log(`${name} [${release}]: no pause on the guard's session (${e.message}); hits ${hits[path] || 0}`); await trig.catch(() => {}); return; }
  await send('Fetch.failRequest', { requestId: ev.params.requestId, errorReason: 'Aborted' }, g);
  await trig.catch(() => {});
  const r = await resumed;
  // The opener answers again (it was stopped while the popup was held):
  await send('Runtime.evaluate', { expression: '1' }, sess);
  await sleep(300);
  console.log(`${name} [${release}]: held hits ${held}; paused on the guard's session: ${ev.params.request.method} ${ev.params.request.url.replace(base, '')}; refused; hits now ${hits[path] || 0}; resume: ${r}`);
  await send('Target.closeTarget', { targetId: tid });
}
const click = async sel => {
  const r = await send('Runtime.evaluate', { expression: `(() => { const b = document.querySelector(${JSON.stringify(sel)}).getBoundingClientRect(); return [b.x + b.width/2, b.y + b.height/2]; })()`, returnByValue: true }, sess);
  const [x, y] = r.result.value;
  await send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1, buttons: 1 }, sess);
  await send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 }, sess);
};
for (const release of (process.env.REL || 'own,other,detach').split(',')) try {
  await trial('window.open', '/popup-open', () => send('Runtime.evaluate', { expression: `window.open('/popup-open')`, userGesture: true }, sess), release);
  await trial('link target=_blank', '/popup-link', () => click('#l'), release);
  await trial('form POST target=_blank', '/popup-form', () => click('#f button'), release);
} catch (e) { console.log(release, 'failed:', e.message); }
console.log('hits', JSON.stringify(hits));
ws.close(); srv.close();
process.exit(0);
