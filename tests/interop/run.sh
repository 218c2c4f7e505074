#!/usr/bin/env bash
# Interop test: the official MCP Python SDK client drives the stdio_server and trip_planner
# examples on every protocol version it supports. Installs the pinned client into a virtualenv
# under target/. Fails loudly when anything is missing; it never skips.
set -euo pipefail
cd "$(dirname "$0")/../.."

MCP_VERSION="2.3.0"
VENV="target/interop-venv"

if ! command -v python3 >/dev/null 2>&1; then
  echo "interop: python3 is required (the Python SDK client runs on it)" >&2
  exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==${MCP_VERSION}"

# With the workspace's features, as `cargo test --workspace` builds them: nothing is built twice.
cargo build --quiet --workspace --examples
"$VENV/bin/python" tests/interop/python_client.py target/debug/examples/stdio_server
"$VENV/bin/python" tests/interop/trip_planner_client.py target/debug/examples/trip_planner
