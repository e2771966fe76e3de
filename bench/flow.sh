#!/usr/bin/env bash
# An agent's whole task: the 13-step shop flow on waymark's demo shop for
# waymark, agent-browser and Playwright MCP, interleaved; medians and ratios
# of wall time, tokens read and per command. Env: RUNS (7), GETURL (5),
# AB_DELTA (1), WM_CHANGES (1), TOOLS, WAYMARK_BIN, WAYMARK_BASE_BIN (another
# build, run as "waymark-base" on its own daemon: a change's before and after in one run).
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"

trap 'ab_close_sessions bench-flow; stop_demoserve' EXIT
start_demoserve || exit 1
BASE_URL="$DEMO_URL"; export BASE_URL
timeout "${FLOW_TIMEOUT:-1800}" node "$BENCH_DIR/js/flow.mjs"
