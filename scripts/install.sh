#!/bin/sh
# Installs waymark from its release files: the two binaries for this
# machine (waymark, the thin front, and waymark-full, the complete CLI; on
# Windows use the .exe by hand), checked against the release's SHA256SUMS
# before anything is put in place. A file whose sum does not match, or that
# SHA256SUMS does not name, stops the install and nothing is installed.
#
#   curl -fsSL https://github.com/waymark-dev/waymark/releases/latest/download/install.sh | sh
#   sh install.sh --version v0.4.0 --dir ~/.local/bin
#
# Options (or environment):
#   --version V   (WAYMARK_VERSION)  the release to install; default: the
#                 one named in the release's VERSION file ("latest")
#   --dir DIR     (WAYMARK_INSTALL_DIR) where to put the binaries; default
#                 ~/.local/bin, or /usr/local/bin when run as root
#   --base URL    (WAYMARK_RELEASE_URL) where the release files are; default
#                 https://github.com/waymark-dev/waymark/releases/download/V
#                 (a folder of `make release`'s dist/ works: file:// or http)
#
# Chromium is not installed here: apt-get install chromium (Debian, Ubuntu),
# or any Chrome; `waymark doctor` says what it finds.
set -eu

version=${WAYMARK_VERSION:-}
dir=${WAYMARK_INSTALL_DIR:-}
base=${WAYMARK_RELEASE_URL:-}
while [ $# -gt 0 ]; do
	case $1 in
	--version) version=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	-h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "install: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done

fail() { echo "install: $*" >&2; exit 1; }

fetch() { # fetch URL FILE
	case $1 in
	file://*) cp "${1#file://}" "$2" ;;
	*)
		if command -v curl >/dev/null 2>&1; then
			curl -fsSL --retry 2 -o "$2" "$1"
		elif command -v wget >/dev/null 2>&1; then
			wget -q -O "$2" "$1"
		else
			fail "neither curl nor wget is here; install one (apt-get install curl)"
		fi ;;
	esac
}

sha256() { # sha256 FILE: prints the hex sum
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	else
		fail "no sha256sum or shasum to check the download with"
	fi
}

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) fail "no release for $(uname -s) from this script; on Windows download waymark-VERSION-windows-amd64.exe and check it against SHA256SUMS" ;;
esac
case $(uname -m) in
x86_64|amd64) arch=amd64 ;;
aarch64|arm64) arch=arm64 ;;
*) fail "no release for $(uname -m); build from source: go install github.com/waymark-dev/waymark/cmd/waymark@latest" ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ -z "$base" ]; then
	if [ -z "$version" ]; then
		fetch "https://github.com/waymark-dev/waymark/releases/latest/download/VERSION" "$tmp/VERSION" ||
			fail "could not read the latest version; pass --version"
		version=$(tr -d ' \r\n' <"$tmp/VERSION")
	fi
	base="https://github.com/waymark-dev/waymark/releases/download/$version"
elif [ -z "$version" ]; then
	fetch "$base/VERSION" "$tmp/VERSION" || fail "no VERSION file at $base; pass --version"
	version=$(tr -d ' \r\n' <"$tmp/VERSION")
fi
case $version in
*/*|*' '*|'') fail "not a version: '$version'" ;;
esac

fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" || fail "no SHA256SUMS at $base"
for name in "waymark-$version-$os-$arch" "waymark-full-$version-$os-$arch"; do
	want=$(awk -v f="$name" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS")
	[ -n "$want" ] || fail "SHA256SUMS names no $name: nothing installed"
	fetch "$base/$name" "$tmp/$name" || fail "could not download $base/$name: nothing installed"
	got=$(sha256 "$tmp/$name")
	[ "$got" = "$want" ] || fail "$name does not match SHA256SUMS (got $got, want $want): nothing installed"
done

if [ -z "$dir" ]; then
	if [ "$(id -u)" = 0 ]; then dir=/usr/local/bin; else dir="$HOME/.local/bin"; fi
fi
mkdir -p "$dir"
# Both, or neither: copied beside their places, then renamed.
for pair in "waymark-$version-$os-$arch:waymark" "waymark-full-$version-$os-$arch:waymark-full"; do
	cp "$tmp/${pair%%:*}" "$dir/.${pair#*:}.new"
	chmod 0755 "$dir/.${pair#*:}.new"
done
mv -f "$dir/.waymark-full.new" "$dir/waymark-full"
mv -f "$dir/.waymark.new" "$dir/waymark"
echo "installed waymark $version in $dir (checked against SHA256SUMS)"
case ":$PATH:" in
*":$dir:"*) ;;
*) echo "add it to your PATH: export PATH=\"$dir:\$PATH\"" ;;
esac
command -v chromium >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1 ||
	echo "waymark needs Chromium: apt-get install chromium (or any Chrome); then run: waymark doctor"
