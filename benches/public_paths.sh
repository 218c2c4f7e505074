#!/usr/bin/env bash
# Counts elicit-core's public paths: every name a user can write after `elicit_core::`, each
# item and each re-export its documentation lists in a public module, the public modules
# themselves included, with every feature on. Prints the count per module, then the total.
#
#   bash benches/public_paths.sh
set -euo pipefail
cd "$(dirname "$0")/.."

cargo doc -q -p elicit-core --all-features --no-deps
total=0
while IFS= read -r page; do
  # rustdoc leaves a redirect page at the definition site of an item re-exported elsewhere.
  grep -q 'http-equiv="refresh"' "$page" && continue
  module=${page#target/doc/}
  module=${module%/index.html}
  module=${module//\//::}
  count=$(grep -o '<dt' "$page" | wc -l)
  printf '%4d  %s\n' "$count" "$module"
  total=$((total + count))
done < <(find target/doc/elicit_core -name index.html | grep -v __private | sort)
echo "$total public paths"
