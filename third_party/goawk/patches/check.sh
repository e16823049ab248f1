#!/bin/sh
# check.sh: the fork is upstream GoAWK's library (without its tests,
# testdata, docs and scripts) plus patches/*.patch, nothing else. It copies
# the upstream module from the Go module cache (downloading it through the
# Go proxy when absent), applies the patches in order and compares the
# result with this directory, CHANGES.md and patches/ aside.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
version=v1.29.1
src=$(cd "$here" && go mod download -json "github.com/benhoyt/goawk@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "check.sh: upstream goawk $version not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$src" "$tmp/goawk"
chmod -R u+w "$tmp/goawk"
(cd "$tmp/goawk" && rm -rf testdata docs scripts .github && find . -name '*_test.go' -exec rm {} +)
for p in "$here"/patches/*.patch; do
	[ -e "$p" ] || continue
	patch -s -p1 -d "$tmp/goawk" <"$p"
done
if ! diff -r -x CHANGES.md -x patches "$tmp/goawk" "$here" >"$tmp/diff"; then
	echo "check.sh: third_party/goawk differs from upstream + patches/ (regenerate the patch):" >&2
	head -50 "$tmp/diff" >&2
	exit 1
fi
echo "third_party/goawk = upstream $version + $(ls "$here"/patches/*.patch | wc -l) patches"
