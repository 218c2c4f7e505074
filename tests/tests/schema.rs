//! The requestedSchema a derive produces: exact JSON, lowering rules, conformance to the
//! official definitions and to the strict subset, snapshots, and caching.

use std::collections::{BTreeSet, HashSet};

use elicit_core::{Elicit, ProtocolVersion};
use elicit_tests::{assert_conforms, assert_snapshot};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Sign in to the build server
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)] // Read only through its schema.
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
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    Elicit,
)]
enum Level {
    Low,
    High,
}

/// Choose a plan
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    Elicit,
)]
#[serde(rename_all = "kebab-case")]
enum Plan {
    /// Free forever
    Free,
    PayAsYouGo,
    /// Pro
    ///
    /// For teams.
    Pro,
    #[schemars(title = "Enterprise (call us)")]
    Enterprise,
}

fn schema_of<T: Elicit>() -> Value {
    serde_json::to_value(T::requested_schema()).unwrap()
}

fn all_versions<T: Elicit>() -> Vec<(ProtocolVersion, Value)> {
    ProtocolVersion::ALL
        .into_iter()
        .filter_map(|v| {
            T::requested_schema_for(v)
                .ok()
                .map(|s| (v, serde_json::to_value(s).unwrap()))
        })
        .collect()
}

#[test]
fn creds_schema_is_exact() {
    assert_eq!(
        schema_of::<Creds>(),
        json!({
            "type": "object",
            "properties": {
                // A field without a title gets one made from its name.
                "username": {
                    "type": "string",
                    "title": "Username",
                    // The bounds in words: clients enforce them without showing them.
                    "description": "Your account name (3–32 characters)",
                    "minLength": 3,
                    "maxLength": 32
                },
                "email": {"type": "string", "title": "Email", "format": "email"},
                "port": {
                    "type": "integer",
                    "title": "Port",
                    "description": "At least 1, a whole number",
                    "minimum": 1,
                    "maximum": 65535
                },
                "remember": {"type": "boolean", "title": "Remember"},
                "level": {"type": "string", "title": "Level", "enum": ["Low", "High"]}
            },
            "required": ["username", "port", "remember", "level"]
        })
    );
    let text = serde_json::to_string(Creds::requested_schema()).unwrap();
    let keys: Vec<usize> = ["username", "email", "port", "remember", "level"]
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(
        keys.is_sorted(),
        "properties keep declaration order: {text}"
    );
}

#[test]
fn message_comes_from_doc_comment_or_attribute() {
    assert_eq!(Creds::message(), "Sign in to the build server");
    assert_eq!(WithMessage::message(), "Pick one, please");
    let request = serde_json::to_value(Creds::form_request()).unwrap();
    assert_eq!(request["mode"], "form");
    assert_eq!(request["message"], "Sign in to the build server");
    assert_eq!(request["requestedSchema"], schema_of::<Creds>());
    let custom = Creds::form_request().with_message("Again, please");
    assert_eq!(custom.to_value()["message"], "Again, please");
}

/// Ignored: the attribute wins.
#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(message = "Pick one, please")]
#[allow(dead_code)]
struct WithMessage {
    plan: Plan,
}

/// Fill in Bare.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Bare {
    ok: bool,
}

fn default_plan() -> Plan {
    Plan::Pro
}

fn default_levels() -> Vec<Level> {
    vec![Level::High]
}

fn default_name() -> String {
    "Ada".into()
}

/// Every field kind a derive can produce.
#[derive(Debug, Deserialize, Serialize, JsonSchema, Elicit)]
// Exact lowering of each kind, without the titles and hints made for people.
#[elicit(no_auto_titles, no_bound_hints)]
#[allow(dead_code)]
struct Everything {
    plain: String,
    #[schemars(title = "Display name", length(min = 1, max = 50))]
    name: String,
    #[schemars(email)]
    email: String,
    #[schemars(url)]
    homepage: Option<String>,
    #[serde(default = "default_name")]
    nickname: String,
    tiny: i8,
    small: u8,
    #[schemars(range(min = -5, max = 100_000))]
    medium: i16,
    count: u16,
    int: i32,
    uint: u32,
    long: i64,
    ulong: u64,
    size: usize,
    isize_: isize,
    huge: i128,
    uhuge: u128,
    #[schemars(range(min = 0.5, max = 2.5))]
    ratio: f64,
    single: f32,
    #[serde(default)]
    retries: u32,
    agree: bool,
    #[serde(default)]
    subscribe: bool,
    level: Level,
    maybe_level: Option<Level>,
    /// Which plan
    plan: Plan,
    #[serde(default = "default_plan")]
    plan_with_default: Plan,
    levels: Vec<Level>,
    #[schemars(length(min = 1, max = 2))]
    plan_set: BTreeSet<Plan>,
    hash_plans: HashSet<Plan>,
    #[serde(default = "default_levels")]
    levels_with_default: Vec<Level>,
    optional_levels: Option<Vec<Level>>,
}

#[test]
fn everything_schema_lowers_every_kind() {
    let schema = schema_of::<Everything>();
    let props = &schema["properties"];
    let max_safe = 9_007_199_254_740_991i64;
    assert_eq!(
        props["name"],
        json!({"type": "string", "title": "Display name", "minLength": 1, "maxLength": 50})
    );
    assert_eq!(
        props["homepage"],
        json!({"type": "string", "format": "uri"})
    );
    assert_eq!(
        props["nickname"],
        json!({"type": "string", "default": "Ada"})
    );
    assert_eq!(
        props["tiny"],
        json!({"type": "integer", "minimum": -128, "maximum": 127})
    );
    assert_eq!(
        props["small"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    // The user's bounds win where tighter; the type's range where the user's is looser.
    assert_eq!(
        props["medium"],
        json!({"type": "integer", "minimum": -5, "maximum": 32767})
    );
    assert_eq!(
        props["int"],
        json!({"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647})
    );
    assert_eq!(
        props["uint"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32})
    );
    for wide in ["long", "isize_", "huge"] {
        assert_eq!(
            props[wide],
            json!({"type": "integer", "minimum": -max_safe, "maximum": max_safe}),
            "{wide}"
        );
    }
    for wide in ["ulong", "size", "uhuge"] {
        assert_eq!(
            props[wide],
            json!({"type": "integer", "minimum": 0, "maximum": max_safe}),
            "{wide}"
        );
    }
    assert_eq!(
        props["ratio"],
        json!({"type": "number", "minimum": 0.5, "maximum": 2.5})
    );
    assert_eq!(props["single"], json!({"type": "number"}));
    assert_eq!(
        props["retries"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32, "default": 0})
    );
    assert_eq!(
        props["subscribe"],
        json!({"type": "boolean", "default": false})
    );
    assert_eq!(
        props["maybe_level"],
        json!({"type": "string", "enum": ["Low", "High"]})
    );
    assert_eq!(
        props["plan"],
        json!({
            "type": "string",
            "description": "Which plan",
            "oneOf": [
                {"const": "free", "title": "Free forever"},
                {"const": "pay-as-you-go", "title": "pay-as-you-go"},
                {"const": "pro", "title": "Pro"},
                {"const": "enterprise", "title": "Enterprise (call us)"}
            ]
        })
    );
    assert_eq!(props["plan_with_default"]["default"], "pro");
    assert_eq!(
        props["levels"],
        json!({"type": "array", "items": {"type": "string", "enum": ["Low", "High"]}})
    );
    assert_eq!(props["plan_set"]["minItems"], 1);
    assert_eq!(props["plan_set"]["maxItems"], 2);
    assert_eq!(
        props["plan_set"]["items"]["anyOf"][3],
        json!({"const": "enterprise", "title": "Enterprise (call us)"})
    );
    assert_eq!(props["levels_with_default"]["default"], json!(["High"]));
    assert_eq!(props["optional_levels"]["type"], "array");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for absent in [
        "homepage",
        "nickname",
        "retries",
        "subscribe",
        "maybe_level",
        "plan_with_default",
        "levels_with_default",
        "optional_levels",
    ] {
        assert!(!required.contains(&absent), "{absent} is optional");
    }
    assert!(required.contains(&"plan_set") && required.contains(&"agree"));
    let text = schema.to_string();
    for banned in [
        "format\":\"int",
        "format\":\"uint",
        "double",
        "float",
        "$ref",
        "$defs",
        "null",
        "anyOf\":[{\"type",
        "uniqueItems",
        "additionalProperties",
        "pattern",
        "exclusive",
    ] {
        assert!(!text.contains(banned), "{banned} leaked into {text}");
    }
}

/// Fill in Renamed.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
struct Renamed {
    first_name: String,
    #[serde(rename = "years")]
    age_in_years: u8,
    #[serde(skip)]
    internal: Vec<u8>,
    #[serde(skip_deserializing)]
    computed: String,
    #[serde(default)]
    zip_code: Option<String>,
}

#[test]
fn serde_names_and_skips_shape_the_schema() {
    let schema = schema_of::<Renamed>();
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 3);
    assert_eq!(
        Renamed::requested_schema()
            .properties()
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["firstName", "years", "zipCode"]
    );
    assert_eq!(schema["required"], json!(["firstName", "years"]));
    assert!(Renamed::requested_schema().denies_unknown());
    assert!(!schema.to_string().contains("additionalProperties"));
}

/// Fill in Generic.
#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(no_auto_titles)]
#[allow(dead_code)]
struct Generic<T, U> {
    value: T,
    other: Option<U>,
    label: String,
}

#[test]
fn generic_structs_get_a_schema_per_instantiation() {
    let a = schema_of::<Generic<u8, Level>>();
    let b = schema_of::<Generic<bool, String>>();
    assert_eq!(
        a["properties"]["value"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        a["properties"]["other"],
        json!({"type": "string", "enum": ["Low", "High"]})
    );
    assert_eq!(b["properties"]["value"], json!({"type": "boolean"}));
    assert_eq!(b["properties"]["other"], json!({"type": "string"}));
    assert!(!std::ptr::eq(
        Generic::<u8, Level>::requested_schema(),
        Generic::<bool, String>::requested_schema()
    ));
}

#[test]
fn the_schema_is_built_once() {
    let first: *const _ = Everything::requested_schema();
    let second: *const _ = Everything::requested_schema();
    assert!(std::ptr::eq(first, second));
    let g1: *const _ = Generic::<u8, Level>::requested_schema();
    let g2: *const _ = Generic::<u8, Level>::requested_schema();
    assert!(std::ptr::eq(g1, g2));
}

#[test]
fn oldest_version_downlevels_or_refuses() {
    let old = serde_json::to_value(
        WithMessage::requested_schema_for(ProtocolVersion::V2025_06_18).unwrap(),
    )
    .unwrap();
    assert_eq!(
        old["properties"]["plan"]["enum"],
        json!(["free", "pay-as-you-go", "pro", "enterprise"])
    );
    assert_eq!(old["properties"]["plan"]["enumNames"][0], "Free forever");
    // A multi-select goes as one box per choice, which 2025-06-18 can hold.
    let everything = Everything::requested_schema_for(ProtocolVersion::V2025_06_18).unwrap();
    let old = serde_json::to_value(everything).unwrap();
    assert!(old["properties"].get("levels").is_none());
    assert_eq!(old["properties"]["levels__Low"]["type"], "boolean");
    assert_eq!(
        old["properties"]["levels_with_default__High"]["default"],
        true
    );
}

#[test]
fn every_generated_schema_conforms() {
    let schemas = [
        all_versions::<Creds>(),
        all_versions::<WithMessage>(),
        all_versions::<Bare>(),
        all_versions::<Everything>(),
        all_versions::<Renamed>(),
        all_versions::<Generic<u8, Level>>(),
        all_versions::<Generic<bool, String>>(),
    ];
    let mut checked = 0;
    for (version, schema) in schemas.iter().flatten() {
        assert_conforms(*version, schema);
        checked += 1;
    }
    assert_eq!(checked, 21, "7 types on 3 versions");
}

#[test]
fn snapshots() {
    assert_snapshot("creds", Creds::requested_schema());
    assert_snapshot("everything", Everything::requested_schema());
    assert_snapshot("renamed", Renamed::requested_schema());
    let old = WithMessage::requested_schema_for(ProtocolVersion::V2025_06_18).unwrap();
    assert_snapshot("with-message-2025-06-18", old);
}

#[test]
fn strict_allowlist_catches_what_the_official_definitions_allow() {
    let leaky = json!({
        "type": "object",
        "title": "Creds",
        "properties": {
            "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
            "n": {"type": "integer", "format": "int32", "exclusiveMinimum": 0}
        }
    });
    // The official definitions accept this; the allowlist must not.
    assert!(
        elicit_tests::official_errors(
            ProtocolVersion::V2025_11_25,
            "ElicitRequestedSchema",
            &leaky
        )
        .is_empty()
    );
    let errors = elicit_tests::allowlist_errors(&leaky);
    assert_eq!(errors.len(), 5, "{errors:#?}");
}

/// A field type of the user's own whose schema refers to itself (schemars writes it once under
/// `$defs` and refers to it): refused, naming the field, rather than followed forever.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // Read only through its schema.
struct Nest(Option<Box<Nest>>);

impl elicit_core::ElicitValue for Nest {}

/// Its schema is only a reference to itself.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // Read only through its schema.
struct Loop(Box<Loop>);

impl elicit_core::ElicitValue for Loop {}

/// Nested
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)] // Read only through its schema.
struct Nested {
    nest: Nest,
}

/// Looped
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)] // Read only through its schema.
struct Looped {
    ring: Loop,
}

#[test]
fn a_field_type_whose_schema_refers_to_itself_is_refused() {
    for (e, field) in [
        (
            Nested::requested_schema_for(ProtocolVersion::LATEST),
            "nest",
        ),
        (
            Looped::requested_schema_for(ProtocolVersion::LATEST),
            "ring",
        ),
    ] {
        let e = e.unwrap_err();
        assert_eq!(e.property_name(), Some(field), "{e}");
        assert!(e.message().contains("recursive"), "{e}");
    }
}

// A titled choice of one option stays a choice.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)] // Read only through its schema.
enum Only {
    /// The only one
    One,
}

/// One choice
#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(no_auto_titles)]
#[allow(dead_code)] // Read only through its schema.
struct OneChoice {
    only: Only,
}

#[test]
fn a_titled_choice_of_one_stays_a_choice() {
    assert_eq!(
        schema_of::<OneChoice>()["properties"]["only"],
        json!({"type": "string", "oneOf": [{"const": "One", "title": "The only one"}]})
    );
}

/// Integers
#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(no_auto_titles, no_bound_hints)]
#[allow(dead_code)] // Read only through its schema.
struct Integers {
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: u8,
    f: u16,
    g: u32,
    h: u64,
    i: usize,
    j: isize,
    // A bound of the user's own, inside the type's range, is kept, whole or not.
    #[schemars(range(min = 0.5, max = 200))]
    k: u8,
    #[schemars(range(min = -1000, max = 1000))]
    l: i8,
}

#[test]
fn integer_fields_are_bounded_by_their_type() {
    const SAFE: i64 = (1 << 53) - 1;
    let props = &schema_of::<Integers>()["properties"];
    for (field, minimum, maximum) in [
        ("a", json!(-128), json!(127)),
        ("b", json!(-32768), json!(32767)),
        ("c", json!(-2147483648_i64), json!(2147483647)),
        ("d", json!(-SAFE), json!(SAFE)),
        ("e", json!(0), json!(255)),
        ("f", json!(0), json!(65535)),
        ("g", json!(0), json!(4294967295_u64)),
        ("h", json!(0), json!(SAFE)),
        ("i", json!(0), json!(SAFE)),
        ("j", json!(-SAFE), json!(SAFE)),
        ("k", json!(0.5), json!(200)),
        ("l", json!(-128), json!(127)),
    ] {
        assert_eq!(
            props[field],
            json!({"type": "integer", "minimum": minimum, "maximum": maximum}),
            "{field}"
        );
    }
}

#[test]
fn schema_text_with_a_key_twice_is_refused_at_any_level() {
    use elicit_core::schema::RequestedSchema;
    for (text, at) in [
        (
            r#"{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}"#,
            "\"a\" appears twice in the object at /properties",
        ),
        (
            r#"{"type":"object","properties":{"a":{"type":"string"}},"properties":{"b":{"type":"string"}}}"#,
            "\"properties\" appears twice in the object at /",
        ),
        (
            r#"{"type":"object","properties":{"a":{"type":"string","maxLength":3,"maxLength":9}}}"#,
            "\"maxLength\" appears twice in the object at /properties/a",
        ),
    ] {
        let e = RequestedSchema::from_json(text).unwrap_err();
        assert!(e.to_string().contains(at), "{text}: {e}");
    }
    // Read once, in the order written.
    let schema = RequestedSchema::from_json(
        r#"{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"},"m":{"type":"number"}}}"#,
    )
    .unwrap();
    let names: Vec<&str> = schema
        .properties()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["z", "a", "m"]);
}

#[test]
fn bounds_that_no_value_meets_are_refused() {
    use elicit_core::schema::RequestedSchema;
    let field = |rules: Value| {
        let mut property = json!({});
        property
            .as_object_mut()
            .unwrap()
            .extend(rules.as_object().unwrap().clone());
        RequestedSchema::from_value(json!({"type": "object", "properties": {"n": property}}))
    };
    for refused in [
        json!({"type": "number", "minimum": 5, "exclusiveMaximum": 5}),
        json!({"type": "number", "exclusiveMinimum": 5, "maximum": 5}),
        json!({"type": "integer", "minimum": 1.2, "maximum": 1.8}),
        json!({"type": "integer", "exclusiveMinimum": 1, "exclusiveMaximum": 2}),
        // Above 2^53, where a float cannot tell these integers apart: none lies between them.
        json!({
            "type": "integer",
            "exclusiveMinimum": 9_007_199_254_740_993_u64,
            "exclusiveMaximum": 9_007_199_254_740_994_u64,
        }),
    ] {
        let e = field(refused.clone()).unwrap_err();
        assert_eq!(e.property_name(), Some("n"), "{refused}");
        assert!(
            e.to_string().contains("could be accepted"),
            "{refused}: {e}"
        );
    }
    for accepted in [
        json!({"type": "number", "minimum": 5, "maximum": 5}),
        json!({"type": "number", "minimum": 1.2, "maximum": 1.8}),
        json!({"type": "integer", "minimum": 1.2, "maximum": 2}),
        json!({"type": "integer", "exclusiveMinimum": 1, "maximum": 2}),
        json!({"type": "integer", "minimum": 3}),
        json!({
            "type": "integer",
            "exclusiveMinimum": 9_007_199_254_740_993_u64,
            "maximum": 9_007_199_254_740_994_u64,
        }),
    ] {
        assert!(field(accepted.clone()).is_ok(), "{accepted}");
    }
}

/// How long? Its default breaks its own range.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
#[allow(dead_code)]
struct Shift {
    #[schemars(range(min = 1, max = 24))]
    #[serde(default = "no_hours")]
    hours: u8,
}

fn no_hours() -> u8 {
    0
}

/// The derive never sees a default's value (serde's `default` names a function), so a form
/// whose default breaks its own rules is refused where its schema is built, naming the field:
/// the first test that asks it fails, and it is never sent.
#[test]
fn a_derived_default_that_breaks_its_rules_is_refused_naming_the_field() {
    for version in elicit_core::ProtocolVersion::ALL {
        let error = Shift::requested_schema_for(version).unwrap_err();
        assert_eq!(error.property_name(), Some("hours"), "{version}");
        assert!(error.to_string().contains("`default` 0"), "{error}");
    }
}
