#!/usr/bin/env bash
# What #[derive(Elicit)] costs a user's build.
#
# Generates a crate with 100 structs of 6 fields each, plus a use of each, three ways:
# - base: #[derive(Deserialize, JsonSchema)]; the use: serde_json::from_str, schemars::schema_for!
# - derive: the same plus #[derive(Elicit)], with the same use: what the derive alone costs;
# - elicit: #[derive(Deserialize, JsonSchema, Elicit)]; the use: ElicitResult::from_json and
#   requested_schema, the validating parse instantiated for every form. Builds each cold (the crate only; its dependencies stay built) and
# incrementally (one line changed), in debug and release, 3 interleaved runs each, and prints
# the medians, the ratios, the expanded code size per struct, and (with cargo-llvm-lines
# installed) the LLVM IR lines of each debug build, which do not move with the machine's load.
#
# Usage: bash benches/compile_time.sh [RUNS]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${ELICIT_COMPILE_TIME_DIR:-${TMPDIR:-/tmp}/elicit-compile-time}
runs=${1:-3}
structs=100

generate() {
  local variant=$1 dir=$work/$1
  mkdir -p "$dir/src"
  cat > "$dir/Cargo.toml" <<EOF
[package]
name = "gen-$variant"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
elicit-core = { path = "$root/elicit-core" }
serde = { version = "1.0.229", features = ["derive"] }
serde_json = "1"
schemars = "1.2.3"

[workspace]
EOF
  {
    echo "#![allow(dead_code)]"
    echo "use schemars::JsonSchema;"
    echo "use serde::Deserialize;"
    if [ "$variant" = elicit ]; then
      echo "use elicit_core::{Elicit, ElicitResult};"
      derive="Deserialize, JsonSchema, Elicit"
    elif [ "$variant" = derive ]; then
      echo "use elicit_core::Elicit;"
      derive="Deserialize, JsonSchema, Elicit"
    else
      derive="Deserialize, JsonSchema"
    fi
    echo "#[derive(Debug, $derive)] pub enum Level { Low, High }"
    for i in $(seq 1 $structs); do
      cat <<EOF
/// Form number $i
#[derive(Debug, $derive)]
pub struct Form$i {
    /// A name
    #[schemars(length(min = 1, max = 40))]
    pub name: String,
    #[schemars(range(min = 1, max = 99))]
    pub count: u8,
    pub agree: bool,
    pub note: Option<String>,
    pub level: Level,
    pub ratio: f64,
}
EOF
    done
    echo "pub fn use_all(reply: &str) -> usize {"
    echo "    let mut n = 0;"
    for i in $(seq 1 $structs); do
      if [ "$variant" = elicit ]; then
        echo "    n += ElicitResult::<Form$i>::from_json(reply).is_ok() as usize + Form$i::requested_schema().properties().len();"
      else
        echo "    n += serde_json::from_str::<Form$i>(reply).is_ok() as usize + schemars::schema_for!(Form$i).as_object().map_or(0, |o| o.len());"
      fi
    done
    echo "    n"
    echo "}"
    echo "// edit 0"
  } > "$dir/src/lib.rs"
}

# Seconds taken by one build of the generated crate.
build() {
  local variant=$1 profile=$2 flag=""
  [ "$profile" = release ] && flag="--release"
  local start end
  start=$(date +%s.%N)
  (cd "$work/$variant" && cargo build -q $flag)
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}

median() {
  sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

rm -rf "$work"
mkdir -p "$work"
variants="base derive elicit"
for variant in $variants; do
  generate "$variant"
  # Dependencies once, untimed.
  (cd "$work/$variant" && cargo build -q && cargo build -q --release)
done

declare -A times
for run in $(seq 1 "$runs"); do
  for variant in $variants; do
    for profile in debug release; do
      flag=""
      [ "$profile" = release ] && flag="--release"
      (cd "$work/$variant" && cargo clean -q -p "gen-$variant" $flag)
      times[$variant,$profile,cold]+="$(build "$variant" "$profile") "
      sed -i "s|^// edit .*|// edit $run-$profile|" "$work/$variant/src/lib.rs"
      times[$variant,$profile,incremental]+="$(build "$variant" "$profile") "
    done
  done
done

echo "compile time of $structs structs x 6 fields plus a use of each; median of $runs interleaved runs"
printf '%-22s %9s %14s %8s %14s %8s\n' "build" "base (s)" "+derive (s)" "ratio" "+derive+use" "ratio"
for profile in debug release; do
  for kind in cold incremental; do
    base=$(echo "${times[base,$profile,$kind]}" | tr ' ' '\n' | grep . | median)
    derive=$(echo "${times[derive,$profile,$kind]}" | tr ' ' '\n' | grep . | median)
    elicit=$(echo "${times[elicit,$profile,$kind]}" | tr ' ' '\n' | grep . | median)
    r1=$(awk -v a="$derive" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
    r2=$(awk -v a="$elicit" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
    printf '%-22s %9.2f %14.2f %7.2fx %14.2f %7.2fx\n' "$profile $kind" "$base" "$derive" "$r1" "$elicit" "$r2"
  done
done

# Expanded code size: what each derive adds, per struct.
for variant in base derive; do
  (cd "$work/$variant" && RUSTC_BOOTSTRAP=1 cargo rustc -q -- -Zunpretty=expanded > "$work/$variant.expanded.rs" 2>/dev/null) || true
done
if [ -s "$work/base.expanded.rs" ] && [ -s "$work/derive.expanded.rs" ]; then
  base_bytes=$(wc -c < "$work/base.expanded.rs")
  derive_bytes=$(wc -c < "$work/derive.expanded.rs")
  base_lines=$(wc -l < "$work/base.expanded.rs")
  derive_lines=$(wc -l < "$work/derive.expanded.rs")
  echo "expanded code: base $base_bytes bytes / $base_lines lines; with the Elicit derive $derive_bytes bytes / $derive_lines lines"
  echo "the Elicit derive adds $(( (derive_bytes - base_bytes) / (structs + 1) )) bytes, $(( (derive_lines - base_lines) / (structs + 1) )) lines per item (100 structs and 1 enum)"
else
  echo "expanded code size: unavailable (needs -Zunpretty, allowed here by RUSTC_BOOTSTRAP=1)"
fi

# LLVM IR lines of each crate's debug build (cargo-llvm-lines, where installed): the code the
# derive and the validating parse add, a count that does not move with the machine's load.
if cargo llvm-lines --version >/dev/null 2>&1; then
  declare -A lines
  for variant in $variants; do
    lines[$variant]=$(cd "$work/$variant" && cargo llvm-lines 2>/dev/null | awk 'NR == 3 { print $1 }')
  done
  awk -v b="${lines[base]}" -v d="${lines[derive]}" -v e="${lines[elicit]}" 'BEGIN {
    printf "LLVM IR lines, debug: base %d, +derive %d (%.2fx), +derive+use %d (%.2fx)\n", b, d, d / b, e, e / b
  }'
else
  echo "LLVM IR lines: unavailable (cargo install cargo-llvm-lines)"
fi
