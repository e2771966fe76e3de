#!/usr/bin/env bash
# Installs the peers into bench/node_modules from the committed lock file,
# with no browser download, and checks they run on the system Chromium.
# Idempotent: skips npm when node_modules already matches package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
source lib/env.sh

[ -x "$CHROMIUM" ] || { echo "setup: no Chromium at $CHROMIUM (apt-get install chromium)" >&2; exit 1; }

stamp=node_modules/.bench-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: node_modules up to date"
else
  # --ignore-scripts: agent-browser's postinstall would fetch its binary from
  # GitHub if it were missing; the npm package already ships the Linux binary.
  timeout 600 npm ci --no-audit --no-fund --ignore-scripts
  echo "$want" >"$stamp"
fi
chmod +x "$AB_BIN"

# hyperfine for command_time.sh (optional: it falls back to a node loop).
if ! command -v hyperfine >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  timeout 300 apt-get install -y hyperfine >/dev/null 2>&1 || echo "setup: hyperfine not installed (command_time.sh will time in node)"
fi

(cd .. && go build -o "$TMP_DIR/benchserve" ./bench/cmd/benchserve)

echo "setup: agent-browser $("$AB_BIN" --version | awk '{print $2}') ($AB_BIN)"
echo "setup: @playwright/mcp $(node -p 'require("./node_modules/@playwright/mcp/package.json").version')," \
  "playwright-core $(node -p 'require("./node_modules/playwright-core/package.json").version')"
echo "setup: $("$CHROMIUM" --version 2>/dev/null)"
if wm="$(waymark_path)"; then echo "setup: waymark at $wm"; else echo "setup: waymark not built (looked at $WAYMARK_BIN and PATH)"; fi
