#!/usr/bin/env bash
# Cross-builds waymark's release binaries into dist/: stripped (-s -w), no
# build paths (-trimpath), no cgo, for Linux and macOS on amd64 and arm64
# and Windows on amd64, named waymark-VERSION-OS-ARCH[.exe], with their
# SHA-256 sums in dist/SHA256SUMS (check with: sha256sum -c SHA256SUMS).
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
  out=dist/waymark-$VERSION-$os-$arch$ext
  echo "release: $out" >&2
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -trimpath -ldflags "$LDFLAGS" -o "$out" ./cmd/waymark
done
cd dist
if command -v sha256sum >/dev/null 2>&1; then
  sha256sum waymark-* >SHA256SUMS
else
  shasum -a 256 waymark-* >SHA256SUMS
fi
cat SHA256SUMS
