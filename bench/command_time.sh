#!/usr/bin/env bash
# Whole-process time of `get url`, `snapshot -i`, `click <ref>` against a warm
# daemon, agent-browser vs waymark, median of 20 (hyperfine when installed).
# Env: RUNS, WAYMARK_BIN, PAGE_PATH; SHOP=1: the demo shop's pages
# (bench/cmd/demoserve) instead of benchserve's, PAGE_PATH defaulting to the
# product page /products/1 and the click to its "Add to cart" (CLICK).
# INTERLEAVE=1: the tools take turns command by command (timed in node),
# rather than hyperfine's runs of one tool at a time. GAP_MS (with
# INTERLEAVE=1): an untimed pause after each command, so each runs on a page
# its tool's last action has finished changing.
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
trap 'ab_close_sessions bench-cmd; stop_benchserve; stop_demoserve' EXIT
if [ "${SHOP:-0}" = 1 ]; then
  start_demoserve || exit 1
  BASE_URL="$DEMO_URL"; export BASE_URL
  export PAGE_PATH="${PAGE_PATH:-/products/1}" CLICK="${CLICK:-button \"Add to cart\"}"
else
  start_benchserve || exit 1
fi
timeout "${COMMAND_TIME_TIMEOUT:-900}" node "$BENCH_DIR/js/command_time.mjs"
