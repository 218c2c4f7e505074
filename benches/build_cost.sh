#!/usr/bin/env bash
# What adding elicit-core costs a user's build and binary, three ways:
# - dependency: a crate that uses serde, serde_json and schemars, built cold in debug from an
#   empty target directory, with and without elicit-core (default features); CPU time (user +
#   system), the median of RUNS builds of each, interleaved. Both build without incremental
#   compilation: elicit-core is a path dependency here, which cargo builds incrementally, where
#   a user's registry dependency never is (from scratch, incremental compilation costs
#   elicit-core's unit 1.5 to 2 times its CPU);
# - unit: elicit-core's own unit against serde_json's in one `cargo build --release --timings`;
# - binary: two rmcp stdio servers with the same rmcp features, built `--release` and stripped:
#   one asks a 4-field form (a string, an integer, a choice and a boolean) through `Ask`, the
#   other returns a fixed text from the same tool; once with elicit-core's `rmcp` feature alone
#   (forms only), once adding `sampling`, once adding `redis`, where a third server asks the
#   same form and keeps its rounds in Redis (`RedisStore`), as a fleet server does: a server
#   that has the feature on but never calls `RedisStore` pays nothing for it.
# Two more parts, run only when named, print where those bytes go (both need the cargo
# subcommand they name: `cargo install cargo-bloat cargo-llvm-lines`):
# - bloat: the same two servers, forms only, built unstripped, by crate and their 40 largest
#   functions (`cargo bloat`);
# - lines: the generic instantiations in elicit-core with `rmcp`, the 40 largest by LLVM IR lines
#   (`cargo llvm-lines`, a debug build), which cost both compile time and code size.
#
# - growth: servers of 1 and 9 forms (each its own struct and tool) three ways, `Ask`, rmcp's
#   own typed `Peer::elicit::<T>` and a fixed text, and a fleet server of one form keeping its
#   rounds in Redis: the first form's cost, each further form's, and the build time each adds
#   (the median of RUNS builds of each server, interleaved).
# - small: the same as growth, in a crate of its own, with elicit-core built for size
#   (`[profile.release.package.elicit-core] opt-level = "s"` in the servers' manifest): what a
#   server that puts size before speed can have. Run only when named.
#
# Usage: bash benches/build_cost.sh [RUNS] [dependency|unit|binary|growth|small|bloat|lines ...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${ELICIT_BUILD_COST_DIR:-${TMPDIR:-/tmp}/elicit-build-cost}
runs=${1:-5}
shift || true
parts=${*:-dependency unit binary growth}

median() {
  sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# A library crate named $1 in $work/$1 with the dependencies in $2, its source in $3.
crate() {
  mkdir -p "$work/$1/src"
  cat > "$work/$1/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
serde = { version = "1.0.229", features = ["derive"] }
serde_json = "1"
schemars = "1.2.3"
$2

[workspace]
EOF
  printf '%s\n' "$3" > "$work/$1/src/lib.rs"
}

dependency() {
  local use='#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Form { pub name: String }
pub fn read(s: &str) -> bool { serde_json::from_str::<Form>(s).is_ok() }'
  crate dep-base "" "$use"
  crate dep-elicit "elicit-core = { path = \"$root/elicit-core\" }" "$use"
  # Fetch once, untimed.
  for variant in dep-base dep-elicit; do
    (cd "$work/$variant" && cargo fetch -q)
  done
  declare -A cpu
  for _ in $(seq 1 "$runs"); do
    for variant in dep-base dep-elicit; do
      rm -rf "$work/$variant/target"
      local t
      t=$( { /usr/bin/time -f '%U %S' sh -c "cd '$work/$variant' && CARGO_INCREMENTAL=0 cargo build -q" ; } 2>&1 | tail -n 1)
      cpu[$variant]+="$(echo "$t" | awk '{ printf "%.2f", $1 + $2 }') "
    done
  done
  local base elicit
  base=$(echo "${cpu[dep-base]}" | tr ' ' '\n' | grep . | median)
  elicit=$(echo "${cpu[dep-elicit]}" | tr ' ' '\n' | grep . | median)
  echo "dependency: cold debug build, CPU seconds, median of $runs: without elicit-core $base, with $elicit ($(awk -v a="$elicit" -v b="$base" 'BEGIN { printf "%.2f", a / b }')x)"
}

unit() {
  local dir=$work/dep-elicit
  [ -d "$dir" ] || crate dep-elicit "elicit-core = { path = \"$root/elicit-core\" }" "pub fn f() {}"
  rm -rf "$dir/target"
  (cd "$dir" && cargo build -q --release --timings)
  # The report's data: one entry per unit, with its name and its duration in seconds.
  python3 - "$dir/target/cargo-timings/cargo-timing.html" <<'EOF'
import json, re, sys
html = open(sys.argv[1]).read()
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);", html, re.S).group(1))
took = {}
for u in units:
    if u.get("target", "").strip() in ("", "(lib)") or "lib" in u.get("target", ""):
        took[u["name"]] = took.get(u["name"], 0) + u["duration"]
core, json_ = took.get("elicit-core"), took.get("serde_json")
print(f"unit: release build, elicit-core {core:.2f} s, serde_json {json_:.2f} s ({core / json_:.2f}x)")
EOF
}

# The servers' manifest, with elicit-core's features $1.
servers_manifest() {
  cat > "$work/servers/Cargo.toml" <<EOF
[package]
name = "servers"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
elicit-core = { path = "$root/elicit-core", features = [$1] }
serde = { version = "1.0.229", features = ["derive"] }
serde_json = "1"
schemars = "1.2.3"
rmcp = { version = "3.11", default-features = false, features = ["server", "elicitation", "request-state", "transport-io"] }
tokio = { version = "1", features = ["rt", "macros", "io-std"] }

[profile.release]
strip = ${2:-true}

[workspace]
EOF
}

binary() {
  local dir=$work/servers
  mkdir -p "$dir/src/bin"
  local common='use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};

#[derive(Clone)]
struct Server;

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = serde_json::json!({"type": "object"});
        let tool = Tool::new("book", "Book a table", schema.as_object().cloned().unwrap_or_default());
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        book(&request, &context).await
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    MAIN_SETUP
    Server.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}'
  # A fleet server: the asking one, its rounds kept in a Redis every process shares.
  # (No ampersand: bash puts the matched text in its place in a substitution.)
  local fleet_setup='let url = std::env::var("REDIS_URL")?;
    let store = elicit_core::ask::RedisStore::open(url.as_str(), "bench:")?;
    let key = elicit_core::ask::StateKey::new(std::env::var("SECRET")?)?.with_store(store);
    key.install().map_err(|_| "a key was installed already")?;'
  local fleet_common=${common//MAIN_SETUP/$fleet_setup}
  common=${common//MAIN_SETUP/}
  cat > "$dir/src/bin/plain.rs" <<EOF
$common

async fn book(
    _: &CallToolRequestParams,
    _: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    Ok(CallToolResult::success(vec![ContentBlock::text("booked")]).into())
}
EOF
  cat > "$dir/src/bin/asking.rs" <<EOF
$common

use elicit_core::prelude::*;

/// Book a table
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Booking {
    name: String,
    party_size: u8,
    seating: Seating,
    high_chair: bool,
}

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
enum Seating {
    Indoor,
    Outdoor,
}

async fn book(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let ask = Ask::new(request, context);
    ask.run(async {
        let booking = ask.form::<Booking>("booking").await?;
        let text = serde_json::to_string(&booking).unwrap_or_default();
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    })
    .await
    .into_response()
}
EOF
  # The fleet server's source: the asking one's handler, with a main that opens the store.
  sed -n '/^use elicit_core::prelude::\*;/,$p' "$dir/src/bin/asking.rs" > "$work/asking-body.rs"
  { printf '%s\n' "$fleet_common"; echo; cat "$work/asking-body.rs"; } > "$work/fleet.rs"
  local features plain asking fleet
  for features in '"rmcp"' '"rmcp", "sampling"' '"rmcp", "redis"'; do
    servers_manifest "$features"
    rm -f "$dir/src/bin/fleet.rs"
    case $features in *redis*) cp "$work/fleet.rs" "$dir/src/bin/fleet.rs" ;; esac
    (cd "$dir" && cargo build -q --release --bins)
    plain=$(stat -c %s "$dir/target/release/plain")
    asking=$(stat -c %s "$dir/target/release/asking")
    awk -v p="$plain" -v a="$asking" -v f="$features" 'BEGIN {
      printf "binary: stripped release rmcp servers, features [%s]: fixed text %.2f MB, asking a form %.2f MB: elicit-core adds %.2f MB\n", f, p / 1e6, a / 1e6, (a - p) / 1e6
    }'
    if [ -f "$dir/src/bin/fleet.rs" ]; then
      fleet=$(stat -c %s "$dir/target/release/fleet")
      awk -v p="$plain" -v a="$fleet" 'BEGIN {
        printf "binary: the same asking server keeping its rounds in Redis (RedisStore): %.2f MB: elicit-core adds %.2f MB\n", a / 1e6, (a - p) / 1e6
      }'
    fi
  done
}

# A server of $2 forms, each its own 4-field struct and its own tool, asked the way $1 says:
# `ask` (elicit-core's `Ask`), `rmcp` (rmcp's own typed `Peer::elicit::<T>`, which checks
# nothing) or `plain` (the same tools returning a fixed text); `fleet` is `ask` keeping its rounds
# in Redis (`RedisStore`), as a fleet server does.
growth_server() {
  local way=$1 n=$2 i n_forms
  cat <<'EOF'
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};

#[derive(Clone)]
struct Server;
EOF
  # The fixed-text server has the tools but no forms.
  [ "$way" = plain ] && n_forms=0 || n_forms=$n
  for ((i = 0; i < n_forms; i++)); do
    cat <<EOF

/// Form $i
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, elicit_core::Elicit)]
struct Form$i {
    name_$i: String,
    count_$i: u8,
    choice_$i: Choice$i,
    flag_$i: bool,
}

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, elicit_core::Elicit)]
enum Choice$i {
    First$i,
    Second$i,
}
EOF
    if [ "$way" = rmcp ]; then echo "rmcp::elicit_safe!(Form$i);"; fi
  done
  cat <<'EOF'

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
EOF
  case $way in
    ask | fleet) echo '        let ask = elicit_core::ask::Ask::new(&request, &context);' ;;
    *) echo '        let _ = &context;' ;;
  esac
  echo '        match request.name.as_ref() {'
  for ((i = 0; i < n; i++)); do
    case $way in
      ask | fleet) cat <<EOF
            "tool_$i" => ask
                .run(async {
                    let answer = ask.form::<Form$i>("form").await?;
                    let text = serde_json::to_string(&answer).unwrap_or_default();
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                })
                .await
                .into_response(),
EOF
      ;;
      rmcp) cat <<EOF
            "tool_$i" => {
                let answer = context.peer.elicit::<Form$i>("Form $i").await;
                let text = match answer {
                    Ok(answer) => serde_json::to_string(&answer).unwrap_or_default(),
                    Err(e) => e.to_string(),
                };
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
            }
EOF
      ;;
      plain) cat <<EOF
            "tool_$i" => Ok(CallToolResult::success(vec![ContentBlock::text("form $i")]).into()),
EOF
      ;;
    esac
  done
  cat <<'EOF'
            _ => Err(ErrorData::invalid_params("no such tool", None)),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
EOF
  if [ "$way" = fleet ]; then
    cat <<'EOF'
    let url = std::env::var("REDIS_URL")?;
    let store = elicit_core::ask::RedisStore::open(url.as_str(), "bench:")?;
    let key = elicit_core::ask::StateKey::new(std::env::var("SECRET")?)?.with_store(store);
    key.install().map_err(|_| "a key was installed already")?;
EOF
  fi
  cat <<'EOF'
    Server.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
EOF
}

# Growth: servers of 1 and 9 forms, each form its own struct and tool, three ways (Ask, rmcp's
# own typed path, a fixed text), and a fleet server of 1 form; stripped release sizes, and the
# CPU time (user + system) of building each server's own unit once its dependencies are built,
# the median of RUNS builds.
# With an argument, elicit-core is built at that opt-level, in a crate of its own.
growth() {
  local opt=${1:-} way n
  local dir=$work/growth${opt:+-$opt} part=growth${opt:+ (elicit-core at opt-level $opt)}
  mkdir -p "$dir/src/bin"
  cat > "$dir/Cargo.toml" <<EOF
[package]
name = "growth"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
elicit-core = { path = "$root/elicit-core", features = ["rmcp", "redis"] }
serde = { version = "1.0.229", features = ["derive"] }
serde_json = "1"
schemars = "1.2.3"
rmcp = { version = "3.11", default-features = false, features = ["server", "elicitation", "schemars", "request-state", "transport-io"] }
tokio = { version = "1", features = ["rt", "macros", "io-std"] }

[profile.release]
strip = true
${opt:+
[profile.release.package.elicit-core]
opt-level = \"$opt\"
}
[workspace]
EOF
  rm -f "$dir"/src/bin/*.rs
  for way in plain rmcp ask; do
    for n in 1 9; do
      growth_server "$way" "$n" > "$dir/src/bin/${way}_$n.rs"
    done
  done
  growth_server fleet 1 > "$dir/src/bin/fleet_1.rs"
  (cd "$dir" && cargo build -q --release --bins)
  local TIMEFORMAT='%U %S' bin cpu
  local -A size secs took
  for bin in plain_1 plain_9 rmcp_1 rmcp_9 ask_1 ask_9 fleet_1; do
    size[$bin]=$(stat -c %s "$dir/target/release/$bin")
  done
  # Each server's build, RUNS times, interleaved; the median of each.
  for _ in $(seq 1 "$runs"); do
    for bin in plain_1 plain_9 rmcp_1 rmcp_9 ask_1 ask_9 fleet_1; do
      touch "$dir/src/bin/$bin.rs"
      cpu=$( { time (cd "$dir" && cargo build -q --release --bin "$bin"); } 2>&1 | tail -n 1)
      took[$bin]+="$(awk -v t="$cpu" 'BEGIN { split(t, a, " "); print a[1] + a[2] }') "
    done
  done
  for bin in "${!took[@]}"; do
    secs[$bin]=$(echo "${took[$bin]}" | tr ' ' '\n' | grep . | median)
  done
  for way in rmcp ask; do
    awk -v w="$way" -v part="$part" -v p1="${size[plain_1]}" -v p9="${size[plain_9]}" \
      -v a1="${size[${way}_1]}" -v a9="${size[${way}_9]}" \
      -v t1="${secs[${way}_1]}" -v t9="${secs[${way}_9]}" \
      -v u1="${secs[plain_1]}" -v u9="${secs[plain_9]}" 'BEGIN {
      printf "%s: %s: the first form adds %.2f MB to the fixed-text server; each further form with its tool adds %.1f KB (a fixed-text tool %.1f KB) and %.2f s of CPU to the build of the server (a fixed-text tool %.2f s)\n",
        part, w, (a1 - p1) / 1e6, (a9 - a1) / 8 / 1e3, (p9 - p1) / 8 / 1e3, (t9 - t1) / 8, (u9 - u1) / 8
    }'
  done
  awk -v part="$part" -v p1="${size[plain_1]}" -v f1="${size[fleet_1]}" 'BEGIN {
    printf "%s: fleet: one form, its rounds in Redis (RedisStore): adds %.2f MB to the fixed-text server of %.2f MB\n", part, (f1 - p1) / 1e6, p1 / 1e6
  }'
}

bloat() {
  local dir=$work/servers
  [ -f "$dir/src/bin/asking.rs" ] || binary
  servers_manifest '"rmcp"' false
  for bin in plain asking; do
    echo "bloat: $bin, by crate"
    (cd "$dir" && cargo bloat --release --bin "$bin" --crates -n 16)
  done
  echo "bloat: asking, the 40 largest functions"
  (cd "$dir" && cargo bloat --release --bin asking -n 40)
}

lines() {
  (cd "$root" && cargo llvm-lines -q -p elicit-core --lib --features rmcp | head -n 43)
}

small() {
  growth s
}

mkdir -p "$work"
for part in $parts; do
  "$part"
done
