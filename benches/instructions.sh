#!/usr/bin/env bash
# Instructions per read, by callgrind: each read of `benches/examples/instructions.rs` run 1,001
# times and once, the difference divided by 1,000. Counts do not move with the machine's load,
# so they are the steady measure beside criterion's times. Needs valgrind.
#
# Usage: bash benches/instructions.sh [READ ...]   (every read when none is named)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cargo build -q --release -p elicit-benches --example instructions --manifest-path "$root/Cargo.toml"
bin=$root/target/release/examples/instructions
reads=${*:-plain-5 from_json-5 deserialize-5 plain-24 from_json-24 deserialize-24 rmcp-5 from_value-5 rmcp-24 from_value-24 required-3 optional-3 free-3}

count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
    sed -n 's/.*Collected : *//p'
}

for read in $reads; do
  one=$(count "$read" 1)
  many=$(count "$read" 1001)
  echo "$read: $(( (many - one) / 1000 )) instructions per read"
done
