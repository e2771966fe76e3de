#!/usr/bin/env bash
# Prints the bin folder of a Go toolchain that builds waymark.
#
# A Go of 1.21 or later on PATH is used as it is: it fetches the toolchain
# go.mod names by itself (GOTOOLCHAIN=auto). Otherwise (no Go, or Debian
# 12's Go 1.19, too old to read go.mod) the toolchain go.mod names is
# fetched from the Go module proxy as the go command fetches it: the
# golang.org/toolchain module, version v0.0.1-goVERSION.OS-ARCH, checked
# against the hash the checksum database gives for it (read through the
# proxy, over TLS) before anything of it is used. It is kept in
# ${WAYMARK_GO_ROOT:-~/.cache/waymark/toolchain}/goVERSION.OS-ARCH.
#
# Environment: GOPROXY (the first proxy of the list; default
# https://proxy.golang.org), WAYMARK_GO_ROOT.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "go-toolchain: $*" >&2; }

# The version go.mod names: its toolchain line, else its go line ("1.26"
# names the release 1.26.0).
want=$(awk '$1 == "toolchain" { sub(/^go/, "", $2); print $2; exit }' go.mod)
[ -n "$want" ] || want=$(awk '$1 == "go" { print $2; exit }' go.mod)
case $want in
  *.*.*) ;;
  *.*) want=$want.0 ;;
  *) say "cannot read the Go version in go.mod"; exit 1 ;;
esac

# A Go of 1.21 or later does the rest itself.
if command -v go >/dev/null 2>&1; then
  have=$(go env GOVERSION 2>/dev/null || true)
  minor=$(echo "$have" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
  if [ -n "$minor" ] && [ "$minor" -ge 21 ]; then
    dirname "$(command -v go)"
    exit 0
  fi
  say "${have:-this Go} is older than 1.21 and cannot fetch go$want by itself; fetching it from the module proxy"
fi

case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) say "unsupported system $(uname -s): install Go $want from https://go.dev/dl/"; exit 1 ;;
esac
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) say "unsupported machine $(uname -m): install Go $want from https://go.dev/dl/"; exit 1 ;;
esac

root=${WAYMARK_GO_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/waymark/toolchain}
dest=$root/go$want.$os-$arch
if [ -x "$dest/bin/go" ]; then
  echo "$dest/bin"
  exit 0
fi

proxy=${GOPROXY:-https://proxy.golang.org}
proxy=${proxy%%[,|]*}
case $proxy in
  off | direct | "") proxy=https://proxy.golang.org ;;
esac
proxy=${proxy%/}
mod=golang.org/toolchain
ver=v0.0.1-go$want.$os-$arch

fetch() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    say "neither curl nor wget is installed"
    return 1
  fi
}

mkdir -p "$root"
tmp=$(mktemp -d "$root/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

say "fetching go$want for $os/$arch from $proxy"
fetch "$proxy/sumdb/sum.golang.org/lookup/$mod@$ver" "$tmp/lookup" || { say "the checksum database has no $mod@$ver"; exit 1; }
sum=$(awk -v m="$mod" -v v="$ver" '$1 == m && $2 == v { print $3; exit }' "$tmp/lookup")
case $sum in
  h1:*) ;;
  *) say "no hash for $mod@$ver in the checksum database's answer"; exit 1 ;;
esac
fetch "$proxy/$mod/@v/$ver.zip" "$tmp/go.zip" || { say "the proxy has no $mod@$ver"; exit 1; }

# The module's hash, as the go command computes it (dirhash Hash1): the
# SHA-256 of the lines "SHA256(file)  NAME" of every file, NAME as in the
# zip (module@version/path), sorted bytewise; base64.
mkdir "$tmp/x"
(cd "$tmp/x" && unzip -q ../go.zip)
hex=$(cd "$tmp/x" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' '\0' |
  xargs -0 sha256sum -- | sha256sum | cut -d' ' -f1)
got=h1:$(printf "$(echo "$hex" | sed 's/../\\x&/g')" | base64)
if [ "$got" != "$sum" ]; then
  say "checksum mismatch for $mod@$ver: the checksum database says $sum, the download is $got; nothing was installed"
  exit 1
fi

src=$tmp/x/$mod@$ver
# Module zips keep no file modes: the go command marks these executable.
chmod -R u+rwX,go+rX "$src"
find "$src/bin" "$src/pkg/tool" -type f -exec chmod +x {} + 2>/dev/null || true
rm -rf "$dest"
mv "$src" "$dest"
say "go$want is in $dest"
echo "$dest/bin"
