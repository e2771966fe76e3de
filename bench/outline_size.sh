#!/usr/bin/env bash
# Characters and tokens of agent-browser, Playwright MCP and waymark snapshots
# on /big and saved real pages. Env: PAGES (space-separated paths), WAYMARK_BIN.
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
trap 'ab_close_sessions bench-size; stop_benchserve' EXIT
start_benchserve || exit 1
timeout "${OUTLINE_SIZE_TIMEOUT:-900}" node "$BENCH_DIR/js/outline_size.mjs"
