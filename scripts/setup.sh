#!/usr/bin/env bash
# Sets waymark up on a fresh Debian machine and shows it working: installs
# what is missing (make, a Go toolchain, Chromium) from Debian's packages,
# builds bin/waymark, and runs the demo against the demo site that waymark
# serves itself.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
need=()
command -v make >/dev/null 2>&1 || need+=(make)
# Debian's Go may be older than go.mod's; any Go from 1.21 on fetches the
# toolchain go.mod names through the module proxy by itself (GOTOOLCHAIN=auto).
command -v go >/dev/null 2>&1 || need+=(golang-go)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]} with apt-get…" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! go version >/dev/null 2>&1; then
  echo "setup: no working Go toolchain; install Go $(awk '/^go /{print $2}' go.mod) or newer from https://go.dev/dl/ and run this again" >&2
  exit 1
fi

bash scripts/install-chromium.sh
make build
./bin/waymark demo
