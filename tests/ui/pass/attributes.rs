use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

fn five() -> u8 {
    5
}

/// Ignored: the attribute wins.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[elicit(message = "Tell us about yourself")]
struct Profile {
    #[serde(rename = "displayName")]
    #[schemars(title = "Name", description = "Shown to others", length(max = 40))]
    name: String,
    #[serde(default = "five")]
    stars: u8,
    #[serde(default)]
    homepage: Option<String>,
    #[serde(skip)]
    cache: Vec<Vec<u8>>,
    #[serde(skip_deserializing)]
    computed: std::collections::HashMap<String, String>,
    // Neither the schema nor the parse sees a skipped field, so its keys are not checked.
    #[serde(skip)]
    #[schemars(with = "String", extend("x-internal" = true))]
    raw: Vec<u8>,
    #[elicit(not_sensitive = "counts tokens, holds none")]
    token_count: u32,
    #[schemars(url)]
    site: Option<String>,
}

#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Tone {
    /// Friendly
    Warm,
    #[schemars(title = "Businesslike")]
    Formal,
    #[serde(rename = "x")]
    Other,
}

/// Fill in WithCrate.
#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(crate = ::elicit_core)]
struct WithCrate {
    tone: Tone,
}

pub fn check() {
    assert_eq!(Profile::message(), "Tell us about yourself");
    let _ = WithCrate::requested_schema();
}
