#!/usr/bin/env bash
# A routine replayed on unchanged pages against a hand-written chromedp
# program doing the same 20 steps (replay/bench_test.go: BenchmarkReplay20,
# BenchmarkChromedp20), interleaved: the test binary is built once, then
# each round runs one benchmark and then the other (the order rotating),
# BENCHTIME iterations each. Prints the medians of the per-round ns/op and
# their ratio, and writes results/replay.json. Env: ROUNDS (6), BENCHTIME (5x).
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
ROUNDS="${ROUNDS:-6}" BENCHTIME="${BENCHTIME:-5x}"
bin="$TMP_DIR/replay.test"
(cd "$BENCH_DIR/.." && go test -c -o "$bin" ./replay/) || exit 1
out="$TMP_DIR/replay-rounds.txt"
: >"$out"
cd "$BENCH_DIR/../replay" || exit 1
for i in $(seq "$ROUNDS"); do
  order="Replay20 Chromedp20"
  [ $((i % 2)) = 0 ] && order="Chromedp20 Replay20"
  for b in $order; do
    timeout 600 "$bin" -test.run '^$' -test.bench "^Benchmark$b\$" -test.benchtime "$BENCHTIME" -test.count 1 2>&1 |
      grep -E "^Benchmark$b" | tee -a "$out"
  done
done
node - "$out" "$RESULTS_DIR/replay.json" "$ROUNDS" "$BENCHTIME" <<'JS'
const [out, json, rounds, benchtime] = process.argv.slice(2);
const fs = require('fs'), os = require('os');
const ns = { Replay20: [], Chromedp20: [] };
for (const l of fs.readFileSync(out, 'utf8').split('\n')) {
  const m = l.match(/^Benchmark(Replay20|Chromedp20)\S*\s+\d+\s+(\d+(?:\.\d+)?) ns\/op/);
  if (m) ns[m[1]].push(Number(m[2]));
}
const med = (xs) => { const s = [...xs].sort((a, b) => a - b), k = s.length >> 1; return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2; };
const r = med(ns.Replay20), c = med(ns.Chromedp20);
const load = os.loadavg().map(x => x.toFixed(2)).join(' ');
console.log(`replay of 20 steps: ${(r / 1e6).toFixed(1)} ms, chromedp: ${(c / 1e6).toFixed(1)} ms (medians of ${ns.Replay20.length} and ${ns.Chromedp20.length} rounds of ${benchtime}); ratio ${(r / c).toFixed(2)}; load ${load}`);
fs.writeFileSync(json, JSON.stringify({ date: new Date().toISOString(), nproc: os.cpus().length, loadavg_1_5_15: os.loadavg(), rounds: Number(rounds), benchtime,
  ms: { replay: r / 1e6, chromedp: c / 1e6 }, ratio: r / c, samples_ns: ns }, null, 1) + '\n');
console.log('wrote ' + json);
JS
