#!/usr/bin/env bash
# Installs the real open-source web applications the sheet and doc tests
# serve on loopback (testdata/apps/*/package.json, pinned by their
# package-lock.json). Idempotent and offline-tolerant: a folder installed
# from its current lock is skipped (one whose lock changed since installs
# again), and a failed install is
# reported without failing the script (the tests then fail with a clear
# message when WAYMARK_REQUIRE_BROWSER=1, and skip otherwise).
set -uo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
if ! command -v npm >/dev/null && command -v apt-get >/dev/null && { [ -z "$SUDO" ] || command -v sudo >/dev/null; }; then
	echo "install-testdata-apps: installing npm with apt-get…" >&2
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null ||
		{ $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null; } || true
fi
for lock in testdata/apps/*/package-lock.json; do
	dir=$(dirname "$lock")
	# Installed already, from this lock (npm ci writes node_modules/.package-lock.json):
	# a lock that changed since (a package added) installs again.
	if [ -f "$dir/node_modules/.package-lock.json" ] && [ ! "$lock" -nt "$dir/node_modules/.package-lock.json" ]; then
		continue
	fi
	if ! command -v npm >/dev/null; then
		echo "install-testdata-apps: npm not found; $dir not installed" >&2
		continue
	fi
	(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts) || echo "install-testdata-apps: npm ci failed in $dir" >&2
done
