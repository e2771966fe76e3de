#!/usr/bin/env bash
# Memory of the waymark daemon (+ its Chromium) with 1 and 10 sessions, each
# on a page; skipped when waymark isn't built. Also measures agent-browser's
# (one daemon + Chromium per session) as the peer figure; PEERS=0 skips that.
# Env: COUNTS (default "1 10"), WAYMARK_BIN, PEERS, WM_EXTRA_ARGS.
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
# WM_EXTRA_ARGS: more Chromium switches for waymark, one a line (to measure
# one switch alone; a --disable-features here replaces waymark's own list).
if [ -n "${WM_EXTRA_ARGS:-}" ]; then
  WAYMARK_BROWSER_ARGS="$WAYMARK_BROWSER_ARGS"$'\n'"$WM_EXTRA_ARGS"
  export WAYMARK_BROWSER_ARGS
fi
cleanup() {
  ab_close_sessions $(seq -f 'bench-mem-%g' 0 9)
  if wm="$(waymark_path)"; then
    for i in $(seq 0 9); do timeout 10 "$wm" --session "bench-mem-$i" close >/dev/null 2>&1; done
  fi
  stop_benchserve
}
trap cleanup EXIT
start_benchserve || exit 1
timeout "${DAEMON_MEMORY_TIMEOUT:-900}" node "$BENCH_DIR/js/daemon_memory.mjs"
