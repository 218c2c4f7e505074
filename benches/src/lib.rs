//! Forms and replies shared by the benchmarks: a 5-field and a 24-field struct that together
//! mix every field kind, and the reply bytes each benchmark reads.

use std::collections::BTreeSet;

use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A single-select without titles.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, Elicit,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Red.
    Red,
    /// Green.
    Green,
    /// Blue.
    Blue,
}

/// A single-select with titles.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, Elicit,
)]
pub enum Plan {
    /// Free forever
    Free,
    /// For teams
    Team,
    /// Call us
    Enterprise,
}

/// Five fields: the common shape of a confirmation form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Small {
    /// The account name.
    #[schemars(length(min = 1, max = 32))]
    pub name: String,
    /// Age in years.
    #[schemars(range(min = 1, max = 120))]
    pub age: u8,
    /// Where to write.
    #[schemars(email)]
    pub email: Option<String>,
    /// Agreement.
    pub agree: bool,
    /// A colour.
    pub color: Color,
}

/// Twenty-four fields mixing every kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Large {
    /// A string with bounds.
    #[schemars(length(min = 1, max = 64))]
    pub full_name: String,
    /// A plain string.
    pub company: String,
    /// An optional string.
    pub nickname: Option<String>,
    /// An email.
    #[schemars(email)]
    pub email: String,
    /// A URI.
    #[schemars(url)]
    pub homepage: Option<String>,
    /// A long free text.
    #[schemars(length(max = 2000))]
    pub notes: String,
    /// u8 with a range.
    #[schemars(range(min = 1, max = 12))]
    pub party_size: u8,
    /// u16.
    pub port: u16,
    /// u32.
    pub quota: u32,
    /// i32.
    pub offset: i32,
    /// u64.
    pub user_id: u64,
    /// i64.
    pub balance: i64,
    /// f64 with a range.
    #[schemars(range(min = 0.0, max = 100.0))]
    pub score: f64,
    /// f32.
    pub ratio: f32,
    /// A boolean.
    pub newsletter: bool,
    /// Another boolean.
    pub terms: bool,
    /// An optional boolean.
    pub beta: Option<bool>,
    /// An untitled single-select.
    pub color: Color,
    /// A titled single-select.
    pub plan: Plan,
    /// An optional single-select.
    pub fallback: Option<Plan>,
    /// An untitled multi-select.
    pub colors: Vec<Color>,
    /// A titled multi-select set.
    #[schemars(length(max = 3))]
    pub plans: BTreeSet<Plan>,
    /// An integer with a default.
    #[serde(default)]
    pub retries: u8,
    /// A string with a default.
    #[serde(default)]
    pub locale: String,
}

/// A valid `Small`.
pub fn small() -> Small {
    Small {
        name: "Ada Lovelace".into(),
        age: 36,
        email: Some("ada@example.com".into()),
        agree: true,
        color: Color::Green,
    }
}

/// A valid `Large`.
pub fn large() -> Large {
    Large {
        full_name: "Ada Lovelace".into(),
        company: "Analytical Engines Ltd".into(),
        nickname: Some("Ada".into()),
        email: "ada@example.com".into(),
        homepage: Some("https://example.com/ada".into()),
        notes: "Interested in the difference engine; call after noon.".into(),
        party_size: 4,
        port: 8080,
        quota: 1_000_000,
        offset: -3600,
        user_id: 1_234_567_890,
        balance: -42_000,
        score: 97.5,
        ratio: 0.25,
        newsletter: true,
        terms: true,
        beta: Some(false),
        color: Color::Blue,
        plan: Plan::Team,
        fallback: None,
        colors: vec![Color::Red, Color::Green],
        plans: [Plan::Free, Plan::Team].into_iter().collect(),
        retries: 3,
        locale: "en-GB".into(),
    }
}

/// `{"action":"accept","content":{..}}` for `value`, keys in the form's order, as a client that
/// fills the form in writes it.
pub fn accept_reply<T: Serialize + Elicit>(value: &T) -> String {
    let content = serde_json::to_value(value).expect("serializable");
    let names = T::requested_schema()
        .properties()
        .iter()
        .map(|p| p.name.as_str());
    let entries: Vec<String> = names
        // An absent optional field is left out, as `ElicitResult`'s own serializer leaves it.
        .filter_map(|name| {
            let value = content.get(name).filter(|v| !v.is_null())?;
            Some(format!("{name:?}:{value}"))
        })
        .collect();
    format!(
        r#"{{"action":"accept","content":{{{}}}}}"#,
        entries.join(",")
    )
}

/// The text of a requestedSchema of `properties` string properties, each with a bound, for the
/// schema reader's growth with the size of what it is sent.
#[must_use]
pub fn schema_text(properties: usize) -> String {
    let fields: Vec<String> = (0..properties)
        .map(|i| format!(r#""p{i}":{{"type":"string","minLength":1}}"#))
        .collect();
    format!(
        r#"{{"type":"object","properties":{{{}}},"required":["p0"]}}"#,
        fields.join(",")
    )
}
