#!/usr/bin/env bash
# Cross-builds waymark's release binaries into dist/: stripped (-s -w), no
# build paths (-trimpath), no cgo, for Linux and macOS on amd64 and arm64
# and Windows on amd64, with their SHA-256 sums in dist/SHA256SUMS (check
# with: sha256sum -c SHA256SUMS), the install script that checks them
# (scripts/install.sh) and a VERSION file naming this release.
#
# On Linux and macOS waymark is two programs of one version, installed side
# by side as "waymark" and "waymark-full": waymark-VERSION-OS-ARCH is the
# thin front (cmd/waymark-front), waymark-full-VERSION-OS-ARCH the complete
# CLI (cmd/waymark). On Windows, where the front has no fast path (it talks
# to the daemon's Unix socket only on Unix), waymark-VERSION-windows-amd64.exe
# is the complete CLI alone.
#
# Environment: GO (default go), VERSION (default git describe), PLATFORMS.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
VERSION=${VERSION:-$(git describe --always --dirty 2>/dev/null || echo devel)}
PLATFORMS=${PLATFORMS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64"}
LDFLAGS="-s -w -X github.com/waymark-dev/waymark/internal/version.stamp=$VERSION"

rm -rf dist
mkdir -p dist
for p in $PLATFORMS; do
  os=${p%/*} arch=${p#*/} ext=""
  [ "$os" = windows ] && ext=.exe
  build() { # build OUT PKG
    echo "release: $1" >&2
    CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -trimpath -ldflags "$LDFLAGS" -o "$1" "$2"
  }
  if [ "$os" = windows ]; then
    build "dist/waymark-$VERSION-$os-$arch$ext" ./cmd/waymark
  else
    build "dist/waymark-full-$VERSION-$os-$arch" ./cmd/waymark
    build "dist/waymark-$VERSION-$os-$arch" ./cmd/waymark-front
  fi
done
# The install script (scripts/install.sh) and the version it installs by
# default are published beside the binaries.
cp scripts/install.sh dist/install.sh
echo "$VERSION" >dist/VERSION
cd dist
if command -v sha256sum >/dev/null 2>&1; then
  sha256sum waymark-* >SHA256SUMS
else
  shasum -a 256 waymark-* >SHA256SUMS
fi
cat SHA256SUMS
