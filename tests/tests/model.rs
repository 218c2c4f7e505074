//! The schema model's own API, pinned: comparisons, accessors and setters, and the paths a
//! reply takes only for large forms (long choice lists, more than 64 properties).

use elicit_core::schema::{Bound, Kind, Pattern, RequestedSchema};
use serde_json::{Value, json};

fn schema(json: Value) -> RequestedSchema {
    RequestedSchema::from_value(json).expect("a valid schema")
}

fn accept(content: Value) -> String {
    json!({"action": "accept", "content": content}).to_string()
}

/// The properties each violation of `reply` names, in order.
fn refused(schema: &RequestedSchema, reply: &str) -> Vec<String> {
    let e = schema.parse_reply_json(reply).expect_err("refused");
    e.violations()
        .iter()
        .map(|v| v.property().unwrap_or("-").to_owned())
        .collect()
}

#[test]
fn patterns_are_equal_when_their_sources_are() {
    let a = Pattern::new("^a+$").unwrap();
    assert_eq!(a, Pattern::new("^a+$").unwrap());
    assert_ne!(a, Pattern::new("^b+$").unwrap());
    // Equal sources, however the expression would match, and a different spelling of the same
    // language is another pattern.
    assert_ne!(a, Pattern::new("^(a)+$").unwrap());
}

#[test]
fn schemas_differ_in_every_part_that_goes_on_the_wire() {
    let base = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let s = schema(base.clone());
    assert_eq!(s, schema(base.clone()));
    assert_ne!(
        s,
        schema(json!({"type": "object", "properties": {"b": {"type": "string"}}}))
    );
    let mut denies = s.clone();
    denies.set_deny_unknown(true);
    assert_ne!(s, denies);
    let mut dialect = s.clone();
    dialect.set_dialect(Some("https://json-schema.org/draft/2020-12/schema".into()));
    assert_ne!(s, dialect);
    // A lint (here a keyword outside the subset) makes another schema.
    let linted = schema(
        json!({"type": "object", "properties": {"a": {"type": "string"}},
        "additionalProperties": true}),
    );
    assert!(!linted.lint().is_empty(), "{:?}", linted.lint());
    assert_ne!(s, linted);
}

#[test]
fn the_unknown_key_rule_is_read_and_set() {
    let mut s = schema(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    let reply = accept(json!({"a": "x", "extra": 1}));
    assert!(!s.denies_unknown());
    assert!(s.parse_reply_json(&reply).is_ok());
    s.set_deny_unknown(true);
    assert!(s.denies_unknown());
    assert_eq!(refused(&s, &reply), ["extra"]);
    s.set_deny_unknown(false);
    assert!(s.parse_reply_json(&reply).is_ok());
}

#[test]
fn the_dialect_is_read_set_and_written() {
    let mut s = schema(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    assert_eq!(s.dialect(), None);
    let uri = "https://json-schema.org/draft/2020-12/schema";
    s.set_dialect(Some(uri.into()));
    assert_eq!(s.dialect(), Some(uri));
    assert_eq!(serde_json::to_value(&s).unwrap()["$schema"], uri);
    s.set_dialect(None);
    assert_eq!(serde_json::to_value(&s).unwrap().get("$schema"), None);
}

#[test]
fn required_names_the_required_properties_in_form_order() {
    let s = schema(json!({"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "boolean"}, "c": {"type": "string"}
    }, "required": ["c", "a"]}));
    assert_eq!(s.required().collect::<Vec<_>>(), ["a", "c"]);
    let none = schema(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    assert_eq!(none.required().count(), 0);
}

#[test]
fn every_kind_says_whether_it_has_a_default() {
    let without = schema(json!({"type": "object", "properties": {
        "s": {"type": "string"},
        "n": {"type": "integer"},
        "b": {"type": "boolean"},
        "e": {"type": "string", "enum": ["x", "y"]},
        "m": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}}
    }}));
    for kind in without.properties().iter().map(|p| &p.kind) {
        assert!(!kind.has_default(), "{kind:?}");
        assert_eq!(kind.default_value(), None, "{kind:?}");
    }
    let with = schema(json!({"type": "object", "properties": {
        "s": {"type": "string", "default": "d"},
        "n": {"type": "integer", "default": 3},
        "b": {"type": "boolean", "default": false},
        "e": {"type": "string", "enum": ["x", "y"], "default": "y"},
        "m": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "default": ["x"]}
    }}));
    for p in with.properties() {
        assert!(p.kind.has_default(), "{}", p.name);
    }
}

/// More choices than a reader scans in a line, so each is looked up in the choice's index.
fn long_choices(prefix: &str) -> Vec<String> {
    (0..40).map(|i| format!("{prefix}{i}")).collect()
}

#[test]
fn long_choice_lists_find_each_choice_of_their_own_property() {
    // Two long lists, the second not first in the form, so a lookup that used the wrong
    // property's index would miss.
    let s = schema(json!({"type": "object", "properties": {
        "first": {"type": "string", "enum": long_choices("a")},
        "flag": {"type": "boolean"},
        "second": {"type": "string", "enum": long_choices("b")},
        "many": {"type": "array", "items": {"type": "string", "enum": long_choices("c")}}
    }}));
    let ok = accept(json!({"first": "a39", "flag": true, "second": "b17", "many": ["c0", "c39"]}));
    let content = s.parse_reply_json(&ok).expect("accepted").accepted();
    assert_eq!(content.unwrap().get("second").cloned(), Some(json!("b17")));
    for (content, property) in [
        (json!({"first": "b17"}), "first"),
        (json!({"second": "a39"}), "second"),
        (json!({"second": "b40"}), "second"),
        (json!({"many": ["c1", "a1"]}), "many"),
    ] {
        assert_eq!(refused(&s, &accept(content)), [property]);
    }
}

#[test]
fn a_form_over_64_properties_checks_every_required_one() {
    let mut properties = serde_json::Map::new();
    for i in 0..70 {
        properties.insert(format!("p{i}"), json!({"type": "integer"}));
    }
    let required = ["p3", "p60", "p66"];
    let s = schema(json!({"type": "object", "properties": properties, "required": required}));
    let all = accept(json!({"p3": 1, "p60": 2, "p66": 3}));
    assert!(s.parse_reply_json(&all).is_ok());
    assert_eq!(refused(&s, &accept(json!({"p3": 1, "p66": 3}))), ["p60"]);
    assert_eq!(refused(&s, &accept(json!({"p60": 1, "p66": 3}))), ["p3"]);
    assert_eq!(refused(&s, &accept(json!({"p3": 1, "p60": 3}))), ["p66"]);
}

#[test]
fn a_missing_required_property_is_the_only_one_named() {
    let s = schema(json!({"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"},
        "d": {"type": "string"}
    }, "required": ["a", "b", "c", "d"]}));
    assert_eq!(
        refused(&s, &accept(json!({"a": "x", "b": "x", "d": "x"}))),
        ["c"]
    );
    assert_eq!(
        refused(&s, &accept(json!({"b": "x", "c": "x"}))),
        ["a", "d"]
    );
}

#[test]
fn bounds_read_as_floats_and_past_i128_stay_floats() {
    assert_eq!(Bound::Int(3).as_f64(), 3.0);
    assert_eq!(Bound::Int(-7).as_f64(), -7.0);
    assert_eq!(Bound::Float(2.5).as_f64(), 2.5);
    assert_eq!(Bound::from(12.0), Bound::Int(12));
    assert_eq!(Bound::from(-0.5), Bound::Float(-0.5));
    // 2^127 is integral but one past i128::MAX: it stays the float it is, never clamped.
    let edge = 2f64.powi(127);
    assert_eq!(Bound::from(edge), Bound::Float(edge));
    assert_eq!(Bound::from(-edge), Bound::Float(-edge));
    // The largest float below it is an integer bound, exactly.
    let below = f64::from_bits(edge.to_bits() - 1);
    assert_eq!(Bound::from(below), Bound::Int(below as i128));
}

#[test]
fn a_property_read_and_changed_is_checked_again_by_the_builder() {
    let read = schema(json!({"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 10},
        "on": {"type": "boolean", "default": true}
    }}));
    let mut name = read.properties()[0].clone();
    let Kind::String(rules) = &mut name.kind else {
        panic!("{name:?}")
    };
    rules.min_length = Some(20);
    let refused = RequestedSchema::builder().field(name).build().unwrap_err();
    assert_eq!(refused.property_name(), Some("name"), "{refused}");
    let mut on = read.properties()[1].clone();
    on.required = true;
    on.title = Some("On".into());
    let built = RequestedSchema::builder().field(on).build().unwrap();
    assert_eq!(
        serde_json::to_value(&built).unwrap(),
        json!({"type": "object", "properties": {"on": {"type": "boolean", "title": "On", "default": true}},
               "required": ["on"]})
    );
}

#[test]
fn a_runtime_request_for_2025_06_18_is_written_down_whatever_it_holds() {
    use elicit_core::{FormRequest, ProtocolVersion};
    let old = ProtocolVersion::V2025_06_18;
    // Each of these needs rewriting for 2025-06-18 on its own: titled choices become
    // `enumNames`, and only booleans keep a default.
    for property in [
        json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]}),
        json!({"type": "string", "enum": ["a", "b"], "default": "a"}),
        json!({"type": "string", "default": "x"}),
        json!({"type": "integer", "default": 3}),
    ] {
        let s = schema(
            json!({"type": "object", "properties": {"p": property, "ok": {"type": "boolean", "default": true}}}),
        );
        let sent = FormRequest::new("m", &s).with_version(old).unwrap();
        let p = &sent.schema().properties()[sent
            .schema()
            .properties()
            .iter()
            .position(|p| p.name == "p")
            .unwrap()];
        let wire = sent.to_value();
        let written = &wire["requestedSchema"]["properties"]["p"];
        assert_eq!(written.get("default"), None, "{written}");
        assert_eq!(written.get("oneOf"), None, "{written}");
        assert!(!p.kind.has_default(), "{property}");
        assert_eq!(wire["requestedSchema"]["properties"]["ok"]["default"], true);
        assert_eq!(sent.schema(), &s.for_version(old).unwrap());
    }
    // One that needs nothing is sent as it is.
    let plain = schema(
        json!({"type": "object", "properties": {"p": {"type": "string", "enum": ["a", "b"]}}}),
    );
    let sent = FormRequest::new("m", &plain).with_version(old).unwrap();
    assert_eq!(sent.schema(), &plain);
    // A dialect is not a 2025-06-18 keyword either.
    let mut with_dialect = plain.clone();
    with_dialect.set_dialect(Some("https://json-schema.org/draft/2020-12/schema".into()));
    let sent = FormRequest::new("m", &with_dialect)
        .with_version(old)
        .unwrap();
    assert_eq!(sent.schema().dialect(), None);
}

/// Integers written as floats (`30.0`, `-5.0`, `3.0`) are read as the integers they are: a
/// schema reads the same whichever way its numbers were written.
#[test]
fn integers_written_as_floats_read_as_integers() {
    let schema = RequestedSchema::from_value(json!({"type": "object", "properties": {
        "n": {"type": "integer", "default": 30.0},
        "neg": {"type": "integer", "default": -5.0},
        "big": {"type": "integer", "default": 9_223_372_036_854_775_809_u64},
        "huge": {"type": "integer", "default": 2e19},
        "s": {"type": "string", "minLength": 3.0, "maxLength": 5.0},
        "m": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1.0}
    }}))
    .unwrap();
    let wire = serde_json::to_value(&schema).unwrap();
    let props = &wire["properties"];
    assert_eq!(props["n"]["default"], json!(30));
    assert!(props["n"]["default"].is_u64(), "{wire}");
    assert_eq!(props["neg"]["default"], json!(-5));
    assert!(props["neg"]["default"].is_i64(), "{wire}");
    // Above i64, read exactly: never through a float.
    assert_eq!(
        props["big"]["default"],
        json!(9_223_372_036_854_775_809_u64)
    );
    // Past u64, kept as written rather than clamped.
    assert_eq!(props["huge"]["default"], json!(2e19));
    assert_eq!(props["s"]["minLength"], json!(3));
    assert_eq!(props["s"]["maxLength"], json!(5));
    assert_eq!(props["m"]["minItems"], json!(1));
}

#[test]
fn any_of_on_a_string_says_to_use_one_of() {
    let e = RequestedSchema::from_value(json!({"type": "object", "properties": {
        "p": {"type": "string", "anyOf": [{"const": "a", "title": "A"}]}
    }}))
    .unwrap_err();
    assert_eq!(
        e.message(),
        "`anyOf` is not allowed on a property; titled choices use `oneOf`"
    );
}

#[test]
fn equal_bounds_are_allowed() {
    let schema = RequestedSchema::from_value(json!({"type": "object", "properties": {
        "pin_length": {"type": "string", "minLength": 4, "maxLength": 4},
        "pick": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 2, "maxItems": 2}
    }}));
    assert!(schema.is_ok(), "{schema:?}");
}

#[test]
fn shape_errors_name_the_json_type_received() {
    let e = RequestedSchema::from_value(json!([1])).unwrap_err();
    assert_eq!(
        e.message(),
        "a requestedSchema must be a JSON object, got array"
    );
    let e = RequestedSchema::from_value(json!({"type": "object", "properties": {"p": "text"}}))
        .unwrap_err();
    assert_eq!(
        e.message(),
        "a property schema must be an object, got string"
    );
}

/// A schema with every rule the model holds, the three outside the MCP subset included.
fn every_rule() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Yours", "minLength": 2,
                     "maxLength": 9, "pattern": "^[a-z]+$", "default": "ada"},
            "mail": {"type": "string", "format": "email"},
            "age": {"type": "integer", "minimum": 1, "maximum": 99, "default": 30},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5},
            "ok": {"type": "boolean", "default": true},
            "size": {"type": "string", "enum": ["s", "m"], "default": "m"},
            "kind": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "old": {"type": "string", "enum": ["x", "y"], "enumNames": ["X", "Y"]},
            "tags": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true,
                     "items": {"type": "string", "enum": ["p", "q"]}, "default": ["p"]},
            "picks": {"type": "array", "items": {"anyOf": [{"const": "p", "title": "P"}]}}
        },
        "required": ["name", "tags"]
    })
}

#[test]
fn every_rule_is_written_back_and_kept_by_new() {
    let read = schema(every_rule());
    let written = serde_json::to_value(&read).unwrap();
    assert_eq!(written, every_rule(), "written back as read");
    assert_eq!(schema(written), read, "read again as it was");
    let rebuilt = read
        .properties()
        .iter()
        .fold(RequestedSchema::builder(), |b, p| b.field(p.clone()))
        .build()
        .unwrap();
    assert_eq!(rebuilt, read, "kept by the builder");
    assert_eq!(serde_json::to_value(&rebuilt).unwrap(), every_rule());
    // Each rule outside the subset is still enforced after the trip.
    let valid = json!({"name": "ada", "tags": ["p"], "ratio": 1});
    assert!(rebuilt.parse_reply_json(&accept(valid.clone())).is_ok());
    for (field, value) in [
        ("name", json!("Ada")),
        ("ratio", json!(0)),
        ("ratio", json!(1.5)),
        ("tags", json!(["p", "p"])),
    ] {
        let mut content = valid.clone();
        content[field] = value;
        assert_eq!(refused(&rebuilt, &accept(content)), [field]);
    }
}

#[test]
fn a_set_built_by_hand_keeps_its_rule_on_the_wire() {
    let read = schema(json!({"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string", "enum": ["p", "q"]}}
    }}));
    let mut tags = read.properties()[0].clone();
    let Kind::MultiSelect(rules) = &mut tags.kind else {
        panic!("{tags:?}")
    };
    rules.unique = true;
    let built = RequestedSchema::builder().field(tags).build().unwrap();
    let Kind::MultiSelect(kept) = &built.properties()[0].kind else {
        panic!("{built:?}")
    };
    assert!(kept.unique);
    let sent = serde_json::to_value(&built).unwrap();
    assert_eq!(sent["properties"]["tags"]["uniqueItems"], true);
    assert_eq!(
        refused(&built, &accept(json!({"tags": ["q", "q"]}))),
        ["tags"]
    );
}
