//! `RequestedSchema::parse_reply_json` and `parse_reply_value` on arbitrary input: either `{"schema":..,"reply":..}`, run
//! against that schema, or a bare reply, run against a fixed schema of every kind.
#![no_main]

use std::sync::OnceLock;

use elicit_core::Limits;
use elicit_core::schema::RequestedSchema;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn fixed() -> &'static RequestedSchema {
    static SCHEMA: OnceLock<RequestedSchema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        RequestedSchema::from_value(json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[a-z]+$"},
                "email": {"type": "string", "format": "email"},
                "when": {"type": "string", "format": "date-time"},
                "age": {"type": "integer", "minimum": 1, "maximum": 100, "default": 18},
                "pos": {"type": "number", "exclusiveMinimum": 0},
                "ok": {"type": "boolean", "default": true},
                "color": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
                "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]},
                "tags": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true, "items": {"type": "string", "enum": ["x", "y", "z"]}}
            },
            "required": ["name", "age"]
        }))
        .expect("the fixed schema is valid")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = fixed().clone().with_limits(Limits::UNLIMITED).parse_reply_json(text);
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let from_value = fixed().parse_reply_value(&value);
    let from_text = fixed().clone().with_limits(Limits::UNLIMITED).parse_reply_json(text);
    // The same rules on both; only text can show a duplicate key (a `Value` kept the last one),
    // so the text path is at least as strict.
    if from_text.is_ok() {
        assert!(from_value.is_ok(), "{text}");
    }
    if let (Some(schema), Some(reply)) = (value.get("schema"), value.get("reply"))
        && let Ok(schema) = RequestedSchema::from_value(schema.clone())
    {
        if let Ok(content) = schema.parse_reply_value(reply).map(|r| r.accepted()) {
            // What the server accepted, a client-side check accepts too.
            if let Some(content) = content {
                assert!(schema.validate_content(&content).is_ok(), "{text}");
            }
        }
    }
});
