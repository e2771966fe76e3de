#!/usr/bin/env bash
# Sets waymark up on a fresh Debian machine and shows it working: installs
# Chromium when missing, builds bin/waymark, and runs the demo against the
# demo site that waymark serves itself.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-chromium.sh
make build
./bin/waymark demo
