#!/bin/sh
# check.sh: the fork is upstream goja plus patches/*.patch, nothing else.
# It copies the upstream module (from the Go module cache, downloading it
# through the Go proxy when absent), applies the patches in order and
# compares the result with this directory, CHANGES.md and patches/ aside.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
version=v0.0.0-20260917113740-793a2a65c13b
src=$(cd "$here" && go mod download -json "github.com/dop251/goja@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "check.sh: upstream goja $version not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$src" "$tmp/goja"
chmod -R u+w "$tmp/goja"
for p in "$here"/patches/*.patch; do
	[ -e "$p" ] || continue
	patch -s -p1 -d "$tmp/goja" <"$p"
done
if ! diff -r -x CHANGES.md -x patches "$tmp/goja" "$here" >"$tmp/diff"; then
	echo "check.sh: third_party/goja differs from upstream + patches/ (regenerate the patch):" >&2
	head -50 "$tmp/diff" >&2
	exit 1
fi
echo "third_party/goja = upstream $version + $(ls "$here"/patches/*.patch | wc -l) patches"
