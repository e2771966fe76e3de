#!/usr/bin/env bash
# Whole-process time of `get url`, `snapshot -i`, `click <ref>` against a warm
# daemon, agent-browser vs waymark, median of 20 (hyperfine when installed).
# Env: RUNS, WAYMARK_BIN, PAGE_PATH.
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
trap 'ab_close_sessions bench-cmd; stop_benchserve' EXIT
start_benchserve || exit 1
timeout "${COMMAND_TIME_TIMEOUT:-900}" node "$BENCH_DIR/js/command_time.mjs"
