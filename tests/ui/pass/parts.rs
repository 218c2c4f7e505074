use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// A time window.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Window<T> {
    start: T,
    hours: u8,
}

/// How to reach you.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "camelCase")]
struct Contact {
    email_address: String,
    #[serde(flatten)]
    window: Window<String>,
}

/// Fill in Page.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct Page<T> {
    #[serde(rename(serialize = "out", deserialize = "title_text"))]
    title: String,
    #[serde(flatten)]
    contact: Contact,
    #[serde(flatten)]
    extra: Window<T>,
    #[serde(skip)]
    seen: bool,
}

pub fn check() {
    // `Window` twice: its fields clash, which the schema refuses, naming the field.
    let error = <Page<u8> as Elicit>::requested_schema_for(elicit_core::ProtocolVersion::LATEST)
        .expect_err("two fields named `start`");
    assert_eq!(error.property_name(), Some("start"));
    let names: Vec<&str> = (<Contact as Elicit>::requested_schema().properties().iter())
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["emailAddress", "start", "hours"]);
}
