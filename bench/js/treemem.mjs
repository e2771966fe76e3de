// treemem: the memory of process trees (a daemon and every process below
// it: its Chromium's browser, zygotes, GPU, utility and renderer processes),
// per process and summed, three ways:
//
//   tree PSS   every physical page any process of the trees maps is counted
//              once, split among the trees' processes that map it. Unlike
//              the kernel's PSS it is not diluted by processes outside the
//              trees (another Chromium on the machine maps the same binary),
//              so it is what the kernel's PSS sums to on a machine running
//              nothing else. Needs root: PFNs in /proc/PID/pagemap.
//   anonymous  the part of tree PSS in swap-backed pages (heaps, shared
//              memory between processes): what no other program could
//              share; the rest is file pages (the Chromium binary, libraries,
//              fonts, resources). /proc/kpageflags, root.
//   PSS        the kernel's: sum of Pss in /proc/PID/smaps_rollup (any user).
//
// Without root the tree figures are null and PSS stands alone.
import { existsSync, readFileSync, readdirSync, readlinkSync, openSync, readSync, closeSync } from 'node:fs';

const PAGE = 4096;
const MB = 1024 * 1024;

function children() {
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

// outPipes: the pipes a process writes its stdout and stderr to.
function outPipes(pid) {
  const out = [];
  for (const fd of [1, 2]) {
    try {
      const l = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (l.startsWith('pipe:')) out.push(l);
    } catch {}
  }
  return out;
}

// descendants: the roots and every process below them, and Chromium's
// crash handlers (chrome_crashpad_handler detaches itself: its parent is
// init), recognised by the stderr pipe they inherit from their browser.
export function descendants(roots) {
  const kids = children();
  const out = [...roots];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]) || []));
  const pipes = new Set(out.flatMap(outPipes));
  const seen = new Set(out);
  for (const pid of kids.get(1) || []) {
    let comm = '';
    try { comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch {}
    if (!seen.has(pid) && comm.startsWith('chrome_crashpad') && outPipes(pid).some((p) => pipes.has(p))) out.push(pid);
  }
  return out;
}

// kind: a Chromium process's --type (a utility's sub-type after a colon),
// "browser" for Chromium's main process, else the program's name. Chromium
// rewrites its argv into one space-separated string, so split on both.
export function kind(pid) {
  let args;
  try { args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/); } catch { return '?'; }
  const type = args.find((a) => a.startsWith('--type='));
  if (!type) {
    const comm = (() => { try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { return '?'; } })();
    if (comm.startsWith('chrome_crashpad')) return 'crashpad-handler';
    return /chrom/i.test(args[0] || '') || /chrom/i.test(comm) ? 'browser' : comm;
  }
  let k = type.slice('--type='.length);
  const sub = args.find((a) => a.startsWith('--utility-sub-type='));
  if (sub) k += ':' + sub.split('=')[1].split('.').pop();
  return k;
}

function rollup(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const g = (k) => Number((s.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm')) || [0, 0])[1]) * 1024;
    return { rss: g('Rss'), pss: g('Pss') };
  } catch { return { rss: 0, pss: 0 }; }
}

// frames: the physical page numbers a process has resident (none for a
// process that has ended), or null when they cannot be read (not root: the
// kernel hides PFNs, reads them as 0).
function frames(pid) {
  let fd;
  try {
    fd = openSync(`/proc/${pid}/pagemap`, 'r');
    const out = [];
    let range = null;
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const m = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
      if (m) { range = [parseInt(m[1], 16), parseInt(m[2], 16)]; continue; }
      if (!range || !line.startsWith('Rss:') || /^Rss:\s+0 /.test(line)) continue;
      const n = (range[1] - range[0]) / PAGE;
      const buf = Buffer.alloc(n * 8);
      readSync(fd, buf, 0, buf.length, (range[0] / PAGE) * 8);
      for (let i = 0; i < n; i++) {
        const hi = buf.readUInt32LE(i * 8 + 4);
        if (!(hi & 0x80000000)) continue; // not present
        const pfn = (hi & 0x7fffff) * 2 ** 32 + buf.readUInt32LE(i * 8);
        if (pfn === 0) return null; // hidden: not root
        out.push(pfn);
      }
    }
    return out;
  } catch {
    // A process that ended while it was read (a spare renderer replaced)
    // holds nothing any more; any other failure (not root) hides them all.
    return existsSync(`/proc/${pid}`) ? null : [];
  } finally { if (fd !== undefined) closeSync(fd); }
}

// swapBacked: whether each page frame is anonymous or shared memory
// (KPF_SWAPBACKED, bit 14 of /proc/kpageflags), or null without root.
function swapBacked(pfns) {
  let fd;
  try {
    fd = openSync('/proc/kpageflags', 'r');
    const buf = Buffer.alloc(8);
    const out = new Map();
    for (const p of pfns) {
      readSync(fd, buf, 0, 8, p * 8);
      out.set(p, (buf.readUInt32LE(0) & (1 << 14)) !== 0);
    }
    return out;
  } catch { return null; } finally { if (fd !== undefined) closeSync(fd); }
}

// measureTrees: the processes of the trees under roots, each with its kind
// and bytes (rss, pss, and tree_pss and anon when root), and the sums.
export function measureTrees(roots) {
  const pids = descendants(roots);
  const procs = pids.map((pid) => ({ pid, kind: kind(pid), ...rollup(pid), pfns: frames(pid) }));
  const exact = procs.every((p) => p.pfns !== null);
  let anonOf = null;
  if (exact) {
    const count = new Map();
    for (const p of procs) for (const f of new Set(p.pfns)) count.set(f, (count.get(f) || 0) + 1);
    anonOf = swapBacked(count.keys());
    for (const p of procs) {
      let tree = 0, anon = 0;
      for (const f of new Set(p.pfns)) {
        const share = PAGE / count.get(f);
        tree += share;
        if (anonOf && anonOf.get(f)) anon += share;
      }
      p.tree_pss = tree;
      p.anon = anonOf ? anon : null;
    }
  }
  for (const p of procs) delete p.pfns;
  const sum = (k) => procs.reduce((a, p) => a + (p[k] ?? 0), 0);
  return {
    processes: procs.length,
    rss: sum('rss'),
    pss: sum('pss'),
    tree_pss: exact ? sum('tree_pss') : null,
    anon: exact && anonOf ? sum('anon') : null,
    procs,
  };
}

// byKind: the processes summed by kind, in MB: {kind: {n, pss, tree_pss, anon}}.
export function byKind(m) {
  const out = {};
  for (const p of m.procs) {
    const k = (out[p.kind] ||= { n: 0, pss: 0, tree_pss: m.tree_pss === null ? null : 0, anon: m.anon === null ? null : 0 });
    k.n++;
    k.pss += p.pss / MB;
    if (k.tree_pss !== null) k.tree_pss += p.tree_pss / MB;
    if (k.anon !== null) k.anon += p.anon / MB;
  }
  return out;
}

