#!/usr/bin/env bash
# Sets waymark up on a fresh Debian machine and shows it working: installs
# what is missing (make, curl, unzip, Chromium) from Debian's packages,
# finds a Go toolchain that builds waymark (scripts/go-toolchain.sh: the Go
# on PATH when it is 1.21 or later, else the toolchain go.mod names,
# fetched from the Go module proxy and checked against the checksum
# database: Debian 12's Go 1.19 cannot read go.mod), builds bin/waymark
# (the thin front) and bin/waymark-full,
# installs the npm test applications `make test` serves (when npm is there
# or apt-get can install it), and runs the demo against the demo site that
# waymark serves itself.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
need=()
command -v make >/dev/null 2>&1 || need+=(make)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
if ! command -v curl >/dev/null 2>&1 && ! command -v wget >/dev/null 2>&1; then need+=(curl ca-certificates); fi
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]} with apt-get…" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
gobin=$(bash scripts/go-toolchain.sh)
export PATH="$gobin:$PATH"
if ! go version >/dev/null 2>&1; then
  echo "setup: no working Go toolchain; install Go $(awk '/^go /{print $2}' go.mod) or newer from https://go.dev/dl/ and run this again" >&2
  exit 1
fi
echo "setup: building with $(go version) from $gobin" >&2

bash scripts/install-chromium.sh
# The npm packages the sheet and document tests serve, so that `make test`
# passes next (it installs them too, when they are missing).
bash scripts/install-testdata-apps.sh
echo "setup: compiling waymark (a few minutes the first time; nothing prints meanwhile)…" >&2
make build
./bin/waymark demo
if [[ $gobin == */waymark/toolchain/* ]]; then
  echo "setup: to build again, put Go on your PATH: export PATH=\"$gobin:\$PATH\"" >&2
fi
