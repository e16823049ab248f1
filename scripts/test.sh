#!/usr/bin/env bash
# The project's test command. It installs the TypeScript compiler the
# sdkgen tests check their output with (npm, pinned major) and the MCP
# servers the MCP end-to-end tests run with node (npm, pinned) when
# missing, then runs every Go test. Tests that need tsc or mypy skip when those are
# absent, unless PTC_REQUIRE_TOOLS=1 (CI sets it) turns the skip into a
# failure.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .tools/node/node_modules/.bin/tsc ] && command -v npm >/dev/null; then
  npm install --silent --no-audit --no-fund --prefix .tools/node typescript@5 >/dev/null
fi
if [ ! -x .tools/node/node_modules/.bin/mcp-server-everything ] && command -v npm >/dev/null; then
  npm install --silent --no-audit --no-fund --prefix .tools/node @modelcontextprotocol/server-memory@2026.8.31 \
    @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/server-everything@2026.8.31 >/dev/null
fi
export PTC_TSC="$PWD/.tools/node/node_modules/.bin/tsc"

# The shell spec-compat test writes its match-rate table here; it is
# printed at the end, pass or fail.
export PTC_SPEC_REPORT="$(mktemp)"
trap 'cat "$PTC_SPEC_REPORT" 2>/dev/null; rm -f "$PTC_SPEC_REPORT"' EXIT

go vet ./...
# The guest (its shell, the in-tree interpreter fork) is built for wasip1:
# vet its packages there too, where its wasip1-only files compile (the
# shellspec and wasm packages are host-side harnesses).
GOOS=wasip1 GOARCH=wasm go vet ./sandbox/guest/cmd/... ./sandbox/guest/internal/... ./sandbox/guest/shell/... \
  ./sandbox/guest/fileops/... ./sandbox/guest/hostprog/... ./sandbox/guest/strftime/...
# The concurrent packages run under -race only (a second plain run of them
# would find nothing the race run does not, and took minutes of CI); ptc/
# runs both ways, because its heaviest hostile programs skip under -race (the
# detector's shadow memory). -timeout: cmd/ptc's end-to-end tests come near
# go test's 10-minute default on a busy machine.
race=$(go list ./runtime/... ./ptc/... ./harness ./serve/... ./acp ./sandbox ./sandbox/rootfs ./sandbox/jobs ./sandbox/term ./toolbox ./cmd/ptc/tui)
plain=$(go list ./... | grep -vxF -f <(printf '%s\n' $race | grep -v '/ptc/ptc$'))
go test -count=1 -timeout 30m $plain
go test -count=1 -timeout 30m -race $race

# run_code's goja is a fork (third_party/goja, its own module, so ./... above
# leaves it out): the tree must be upstream plus patches/, and goja's own
# tests must pass on it (~2 s once built; the files the patches change are
# the string, VM and Array code those tests cover).
third_party/goja/patches/check.sh
third_party/goawk/patches/check.sh # the guest's awk: upstream GoAWK + patches
(cd third_party/goawk && go vet ./interp/ && go test -count=1 -run TestAppendFields ./interp/)
(cd third_party/goja && go vet . && go test -count=1 .)
