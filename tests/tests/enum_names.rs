//! `#[elicit(enum_names)]`: a titled choice enum written as `enum` + `enumNames` on every
//! version, so one form can mix both styles (as the official conformance suite's SEP-1330 form
//! does).

use elicit_core::{Elicit, ElicitResult, ProtocolVersion};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Color {
    /// Red
    Red,
    /// Green
    Green,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
#[elicit(enum_names)]
enum Size {
    /// Small
    S,
    /// Medium
    M,
}

/// Pick
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[elicit(no_auto_titles)]
struct Pick {
    color: Color,
    size: Option<Size>,
}

#[test]
fn one_form_mixes_titled_and_legacy_choices() {
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let schema = serde_json::to_value(Pick::requested_schema_for(version).unwrap()).unwrap();
        assert_eq!(
            schema["properties"]["color"],
            json!({"type": "string", "oneOf": [
                {"const": "red", "title": "Red"}, {"const": "green", "title": "Green"}
            ]}),
            "{version}"
        );
        assert_eq!(
            schema["properties"]["size"],
            json!({"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]}),
            "{version}"
        );
    }
    // 2025-06-18 writes every titled choice that way.
    let old =
        serde_json::to_value(Pick::requested_schema_for(ProtocolVersion::V2025_06_18).unwrap())
            .unwrap();
    assert_eq!(
        old["properties"]["color"]["enumNames"],
        json!(["Red", "Green"])
    );
    assert_eq!(
        old["properties"]["size"]["enumNames"],
        json!(["Small", "Medium"])
    );
    // Replies read the same either way.
    let pick = ElicitResult::<Pick>::from_json(
        r#"{"action":"accept","content":{"color":"green","size":"m"}}"#,
    )
    .unwrap()
    .accepted()
    .unwrap();
    assert_eq!((pick.color, pick.size), (Color::Green, Some(Size::M)));
    assert!(
        ElicitResult::<Pick>::from_json(
            r#"{"action":"accept","content":{"color":"red","size":"Small"}}"#
        )
        .is_err()
    );
}
