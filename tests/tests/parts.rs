//! Forms made of parts: a `#[serde(flatten)]` field whose type derives `Elicit` puts its fields
//! into the form, with their rules, titles, defaults and checks; the typed read builds every
//! part and names each field as the client sent it.

use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, ProtocolVersion};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// How to reach the person on call.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "camelCase")]
struct Contact {
    /// Email
    #[schemars(email)]
    email_address: String,
    /// Phone
    #[elicit(validate = digits)]
    #[schemars(length(min = 3, max = 20))]
    phone_number: Option<String>,
}

fn digits(phone: &Option<String>) -> Result<(), String> {
    match phone {
        Some(p) if !p.chars().all(|c| c.is_ascii_digit()) => Err("digits only".into()),
        _ => Ok(()),
    }
}

/// When.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Window {
    /// Hours
    #[schemars(range(min = 1, max = 24))]
    #[serde(default = "eight")]
    hours: u8,
}

fn eight() -> u8 {
    8
}

/// Who is paged, and for how long.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Shift {
    #[serde(flatten)]
    contact: Contact,
    #[serde(flatten)]
    window: Window,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Team {
    Sre,
    Ops,
    Db,
}

/// Open an incident.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Incident {
    /// Title
    #[schemars(length(min = 1, max = 80))]
    title: String,
    #[serde(flatten)]
    shift: Shift,
    /// Teams
    notify: Vec<Team>,
}

/// A page: the same contact part as an incident's.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Page {
    #[serde(flatten)]
    contact: Contact,
    /// Text
    text: String,
}

fn names(schema: &RequestedSchema) -> Vec<&str> {
    schema
        .properties()
        .iter()
        .map(|p| p.name.as_str())
        .collect()
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn incident() -> Value {
    json!({
        "title": "Disk full",
        "emailAddress": "ada@example.com",
        "phoneNumber": "",
        "hours": 4,
        "notify": ["sre", "db"],
    })
}

#[test]
fn the_parts_fields_join_the_form_in_their_place_with_their_rules() {
    let schema = serde_json::to_value(Incident::requested_schema()).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "title": {"type": "string", "title": "Title", "description": "Title (1–80 characters)", "minLength": 1, "maxLength": 80},
                "emailAddress": {"type": "string", "title": "Email address", "description": "Email", "format": "email"},
                "phoneNumber": {"type": "string", "title": "Phone number", "description": "Phone (3–20 characters)", "minLength": 3, "maxLength": 20},
                "hours": {"type": "integer", "title": "Hours", "description": "Hours (1–24, a whole number)", "minimum": 1, "maximum": 24, "default": 8},
                "notify": {"type": "array", "title": "Notify", "description": "Teams", "items": {"type": "string", "enum": ["sre", "ops", "db"]}},
            },
            "required": ["title", "emailAddress", "notify"],
        })
    );
    // A part used in another form brings the same fields there.
    assert_eq!(
        names(Page::requested_schema()),
        ["emailAddress", "phoneNumber", "text"]
    );
}

#[test]
fn the_typed_read_builds_every_part() {
    let read = ElicitResult::<Incident>::from_value(&accept(incident())).unwrap();
    let expected = Incident {
        title: "Disk full".into(),
        shift: Shift {
            contact: Contact {
                email_address: "ada@example.com".into(),
                // A blank optional field reads as absent, in a part as anywhere.
                phone_number: None,
            },
            window: Window { hours: 4 },
        },
        notify: vec![Team::Sre, Team::Db],
    };
    assert_eq!(read, ElicitResult::Accept(expected));
    // From text too, and with a part's default where its field is not sent.
    let mut content = incident();
    content.as_object_mut().unwrap().remove("hours");
    let read = ElicitResult::<Incident>::from_json(&accept(content).to_string()).unwrap();
    assert_eq!(read.accepted().unwrap().shift.window, Window { hours: 8 });
}

#[test]
fn each_part_is_checked_by_its_own_rules_naming_fields_as_sent() {
    let content = json!({
        "title": "",
        "emailAddress": "not an address",
        "phoneNumber": "12",
        "hours": 30,
        "notify": ["sre"],
    });
    let error = ElicitResult::<Incident>::from_value(&accept(content)).unwrap_err();
    let broken: Vec<(&str, String)> = (error.violations().iter())
        .map(|v| (v.property().unwrap_or_default(), v.rule().to_string()))
        .collect();
    let fields: Vec<&str> = broken.iter().map(|(field, _)| *field).collect();
    assert_eq!(
        fields,
        ["title", "emailAddress", "phoneNumber", "hours"],
        "{broken:?}"
    );
    // A part's own check runs once the rules pass, under the field's name as sent.
    let mut content = incident();
    content["phoneNumber"] = json!("12a45");
    let error = ElicitResult::<Incident>::from_value(&accept(content)).unwrap_err();
    let violation = &error.violations()[0];
    assert_eq!(violation.property(), Some("phoneNumber"));
    assert!(error.to_string().contains("digits only"), "{error}");
    // A required field of a part, missing.
    let mut content = incident();
    content.as_object_mut().unwrap().remove("emailAddress");
    let error = ElicitResult::<Incident>::from_value(&accept(content)).unwrap_err();
    assert_eq!(error.violations()[0].property(), Some("emailAddress"));
}

#[test]
fn every_version_asks_the_same_fields() {
    for version in ProtocolVersion::ALL {
        let schema = Incident::requested_schema_for(version).unwrap();
        let fields = names(schema);
        // 2025-06-18 has no multi-select: its teams are a box each.
        let notify: &[&str] = match version {
            ProtocolVersion::V2025_06_18 => &["notify__sre", "notify__ops", "notify__db"],
            _ => &["notify"],
        };
        let expected = [
            &["title", "emailAddress", "phoneNumber", "hours"][..],
            notify,
        ]
        .concat();
        assert_eq!(fields, expected, "{version}");
    }
}

#[test]
fn the_runtime_schema_reads_a_form_of_parts_as_the_typed_read_does() {
    let schema =
        RequestedSchema::from_value(serde_json::to_value(Incident::requested_schema()).unwrap())
            .unwrap();
    assert_eq!(&schema, Incident::requested_schema());
    let content = incident();
    let runtime = schema.parse_reply_value(&accept(content.clone())).unwrap();
    assert_eq!(
        runtime.accepted().unwrap()["emailAddress"],
        "ada@example.com"
    );
    let mut bad = content;
    bad["hours"] = json!(0);
    let typed = ElicitResult::<Incident>::from_value(&accept(bad.clone())).unwrap_err();
    let runtime = schema.parse_reply_value(&accept(bad)).unwrap_err();
    assert_eq!(typed.violations(), runtime.violations());
}

/// A form whose own field and whose part's field share a name.
#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Clash {
    #[serde(rename = "emailAddress")]
    email: String,
    #[serde(flatten)]
    contact: Contact,
}

#[test]
fn two_fields_of_one_name_are_refused_never_overwritten() {
    let error = Clash::requested_schema_for(ProtocolVersion::LATEST).unwrap_err();
    assert_eq!(error.property_name(), Some("emailAddress"));
    let text = error.to_string();
    for said in ["Clash", "Contact", "rename"] {
        assert!(text.contains(said), "{said:?} in {text}");
    }
}
