#!/usr/bin/env bash
# Time of one look at /big: bare CDP calls, Playwright's ariaSnapshot(),
# agent-browser's and waymark's snapshot commands. N=15 after 2 warm-ups.
# Env: N, WARMUP, WAYMARK_BIN (default /work/main/bin/waymark), PAGE_PATH (default /big).
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
trap 'ab_close_sessions bench-outline; stop_benchserve' EXIT
start_benchserve || exit 1
timeout "${OUTLINE_TIME_TIMEOUT:-900}" node "$BENCH_DIR/js/outline_time.mjs"
