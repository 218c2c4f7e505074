#!/usr/bin/env bash
# Instructions per parse for each entry point (callgrind), and each one's ratio to the floor.
#
# Usage: bash benches/instructions.sh [PATH..]   (needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."

cargo bench -q -p elicit-benches --bench instructions --no-run
bin=$(ls -t target/release/deps/instructions-* | grep -v '\.d$' | head -1)
paths=("$@")
if [ ${#paths[@]} -eq 0 ]; then
  paths=(floor from_json sorted_keys reversed_keys serde from_value value_clone rmcp_typed from_rmcp runtime ignored)
fi

count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for form in small large; do
  echo "$form form: instructions per parse (1,001 parses less 1, over 1,000)"
  floor=
  for path in "${paths[@]}"; do
    one=$(count "$form" "$path" 1)
    many=$(count "$form" "$path" 1001)
    per=$(( (many - one) / 1000 ))
    if [ "$path" = floor ]; then floor=$per; fi
    if [ -n "$floor" ]; then
      printf '  %-12s %8d  %s\n' "$path" "$per" "$(awk "BEGIN { printf \"%.2fx\", $per / $floor }")"
    else
      printf '  %-12s %8d\n' "$path" "$per"
    fi
  done
done
