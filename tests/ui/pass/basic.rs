use std::collections::{BTreeSet, HashSet};

use elicit_core::{Elicit, ElicitResult};
use schemars::JsonSchema;
use serde::Deserialize;

/// Sign in to the build server
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Creds {
    /// Your account name
    #[schemars(length(min = 3, max = 32))]
    username: String,
    #[schemars(email)]
    email: Option<String>,
    #[schemars(range(min = 1, max = 65535))]
    port: u16,
    remember: bool,
    level: Level,
    levels: Vec<Level>,
    set: BTreeSet<Level>,
    hashed: HashSet<Level>,
    maybe: Option<Level>,
    ratio: f32,
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, JsonSchema, Elicit)]
enum Level {
    Low,
    High,
}

pub fn check() {
    let _ = Creds::requested_schema();
    let r: Result<ElicitResult<Creds>, _> = serde_json::from_str(r#"{"action":"decline"}"#);
    assert!(matches!(r, Ok(ElicitResult::Decline)));
}
