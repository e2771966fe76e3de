#!/usr/bin/env bash
# Installs the document editors the doc tests serve on loopback (issue 19):
# Quill, ProseMirror and EasyMDE, pinned in testdata/apps/docs. Skipped when
# they are there already; offline, it says so and leaves the tests to skip
# (or fail, under WAYMARK_REQUIRE_BROWSER=1, with the same advice).
set -euo pipefail
cd "$(dirname "$0")/../testdata/apps/docs"
if [ -f node_modules/quill/dist/quill.js ] && [ -f node_modules/easymde/dist/easymde.min.js ] && [ -f node_modules/prosemirror-view/dist/index.js ]; then
  exit 0
fi
if ! command -v npm >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get install -y --no-install-recommends npm >/dev/null || true
fi
if ! command -v npm >/dev/null; then
  echo "install-doc-apps: npm is not installed; the document editor tests need it" >&2
  exit 0
fi
npm ci --no-audit --no-fund --ignore-scripts || echo "install-doc-apps: npm ci failed; the document editor tests will say so" >&2
