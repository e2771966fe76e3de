#!/usr/bin/env bash
# A look after an action on the same page beside that page's whole look
# (o200k tokens): the demo shop's product page and checkout, /big and five
# saved pages. Env: PAGES (comma-separated names), TOOLS, WAYMARK_BIN,
# WAYMARK_BASE_BIN (another build: a change's before and after in one run).
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
trap 'ab_close_sessions bench-changes; stop_benchserve; stop_demoserve' EXIT
start_demoserve || exit 1
start_benchserve || exit 1
timeout "${CHANGES_SIZE_TIMEOUT:-900}" node "$BENCH_DIR/js/changes_size.mjs"
