# Shared settings for the bench scripts; source it, don't run it.
# Everything here keeps the tools on loopback and on the system Chromium.

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RESULTS_DIR="$BENCH_DIR/results"
TMP_DIR="$RESULTS_DIR/tmp"
mkdir -p "$RESULTS_DIR" "$TMP_DIR"

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
export WAYMARK_BIN="${WAYMARK_BIN:-$BENCH_DIR/../bin/waymark}"
CORPUS_DIR="${CORPUS_DIR:-$(cd "$BENCH_DIR/../../shared/corpus/web" 2>/dev/null && pwd || echo /work/shared/corpus/web)}"

# Chromium flags every tool gets. The dead loopback proxy (port 9, nothing
# listens) and the resolver rule make any non-loopback request fail inside the
# browser, so a saved page's external resources never leave the machine;
# loopback is never proxied by Chromium, so the bench pages load directly.
CHROME_FLAGS=(
  --no-sandbox
  --disable-background-networking
  --disable-component-update
  --disable-sync
  --no-first-run
  --disable-quic
  --proxy-server=http://127.0.0.1:9
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"
)
export BENCH_CHROME_FLAGS_JSON
BENCH_CHROME_FLAGS_JSON="$(printf '%s\n' "${CHROME_FLAGS[@]}" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify(s.trim().split("\n"))))')"

# No tool downloads a browser or phones home.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PLAYWRIGHT_BROWSERS_PATH=0
export AGENT_BROWSER_SKIP_DOWNLOAD=1
export PUPPETEER_SKIP_DOWNLOAD=1
export DO_NOT_TRACK=1
export NO_UPDATE_NOTIFIER=1

# agent-browser: its native binary (the npm bin is a node wrapper that adds a
# node start-up to every command; a global install links the native binary).
export AB_BIN="${AB_BIN:-$BENCH_DIR/node_modules/agent-browser/bin/agent-browser-linux-x64}"
export AGENT_BROWSER_EXECUTABLE_PATH="$CHROMIUM"
export AGENT_BROWSER_NO_VERSION_CHECK=1          # else it fetches chromereleases.googleblog.com
export AGENT_BROWSER_IDLE_TIMEOUT_MS=900000      # a forgotten daemon exits after 15 min
export AGENT_BROWSER_SOCKET_DIR="$TMP_DIR/ab-sock"
AGENT_BROWSER_ARGS="$(printf '%s\n' "${CHROME_FLAGS[@]}")"
export AGENT_BROWSER_ARGS
mkdir -p "$AGENT_BROWSER_SOCKET_DIR"

# waymark: its own daemon on a socket of this harness (never the user's or
# another session's default daemon, which `daemon stop` would end), and the
# system Chromium.
export WAYMARK_SOCKET="${WAYMARK_SOCKET:-$TMP_DIR/wm/daemon.sock}"
export WAYMARK_BROWSER="${WAYMARK_BROWSER:-$CHROMIUM}"
WAYMARK_BROWSER_ARGS="$(printf '%s\n' "${CHROME_FLAGS[@]}")"
export WAYMARK_BROWSER_ARGS
mkdir -p "$(dirname "$WAYMARK_SOCKET")"

# waymark: resolved from WAYMARK_BIN, else from PATH. "make build" makes
# bin/waymark, the thin front, and bin/waymark-full beside it, which the
# front needs; a single complete binary (go build ./cmd/waymark, an old
# build for WAYMARK_BASE_BIN) works alone.
waymark_path() {
  if [ -x "$WAYMARK_BIN" ]; then echo "$WAYMARK_BIN"; return 0; fi
  if command -v waymark >/dev/null 2>&1; then command -v waymark; return 0; fi
  return 1
}

# start_server NAME URLVAR ARGS...: builds bench/cmd/NAME and starts it with
# ARGS; the first line it prints is its base URL, exported as URLVAR, and its
# pid goes to NAME's upper-cased _PID variable. stop_server NAME ends it.
start_server() {
  local name="$1" urlvar="$2"; shift 2
  local bin="$TMP_DIR/$name" pidvar url=""
  pidvar="$(echo "$name" | tr '[:lower:]' '[:upper:]')_PID"
  (cd "$BENCH_DIR/.." && go build -o "$bin" "./bench/cmd/$name") || return 1
  "$bin" "$@" >"$TMP_DIR/$name.out" 2>"$TMP_DIR/$name.err" &
  printf -v "$pidvar" '%s' "$!"
  for _ in $(seq 50); do
    url="$(head -1 "$TMP_DIR/$name.out" 2>/dev/null)"
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "$name did not start" >&2; return 1; }
  printf -v "$urlvar" '%s' "$url"
  export "${urlvar?}" "${pidvar?}"
}
stop_server() {
  local pidvar; pidvar="$(echo "$1" | tr '[:lower:]' '[:upper:]')_PID"
  local pid="${!pidvar:-}"
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  [ -n "$pid" ] && wait "$pid" 2>/dev/null
  printf -v "$pidvar" '%s' ""
}

# start_benchserve: bench/cmd/benchserve on the saved pages (BASE_URL,
# BENCHSERVE_PID); start_demoserve: waymark's demo shop from this tree
# (DEMO_URL, DEMOSERVE_PID).
start_benchserve() { start_server benchserve BASE_URL -corpus "$CORPUS_DIR"; }
stop_benchserve() { stop_server benchserve; }
start_demoserve() { start_server demoserve DEMO_URL; }
stop_demoserve() { stop_server demoserve; }

# ab SESSION ARGS...: one agent-browser command, bounded in time.
ab() { local s="$1"; shift; timeout "${AB_TIMEOUT:-60}" "$AB_BIN" --session "$s" "$@"; }

# ab_close_sessions NAME...: closes the sessions this run opened (by name),
# then kills a daemon that is still there by its pid file.
ab_close_sessions() {
  local s
  for s in "$@"; do
    timeout 20 "$AB_BIN" --session "$s" close >/dev/null 2>&1
    local pf="$AGENT_BROWSER_SOCKET_DIR/$s.pid"
    local p; p="$(cat "$pf" 2>/dev/null)"
    # only if that pid is still agent-browser (never a reused pid)
    if [ -n "$p" ] && [ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$(readlink -f "$AB_BIN")" ]; then
      kill "$p" 2>/dev/null
    fi
  done
}
