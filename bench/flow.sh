#!/usr/bin/env bash
# An agent's whole task: the 13-step shop flow on waymark's demo shop for
# waymark, agent-browser and Playwright MCP, interleaved; medians and ratios
# of wall time, tokens read and per command. Env: RUNS (7), GETURL (5),
# AB_DELTA (1), WM_CHANGES (1), TOOLS, WAYMARK_BIN, WAYMARK_BASE_BIN (another
# build, run as "waymark-base" on its own daemon: a change's before and after in one run).
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"

start_demoserve() {
  local bin="$TMP_DIR/demoserve"
  (cd "$BENCH_DIR/.." && go build -o "$bin" ./bench/cmd/demoserve) || return 1
  "$bin" >"$TMP_DIR/demoserve.out" 2>"$TMP_DIR/demoserve.err" &
  DEMOSERVE_PID=$!
  for _ in $(seq 50); do
    BASE_URL="$(head -1 "$TMP_DIR/demoserve.out" 2>/dev/null)"
    [ -n "$BASE_URL" ] && break
    sleep 0.1
  done
  [ -n "$BASE_URL" ] || { echo "demoserve did not start" >&2; return 1; }
  export BASE_URL
}
stop_demoserve() {
  [ -n "${DEMOSERVE_PID:-}" ] && kill "$DEMOSERVE_PID" 2>/dev/null
  wait "$DEMOSERVE_PID" 2>/dev/null
  DEMOSERVE_PID=
}

trap 'ab_close_sessions bench-flow; stop_demoserve' EXIT
start_demoserve || exit 1
timeout "${FLOW_TIMEOUT:-1800}" node "$BENCH_DIR/js/flow.mjs"
