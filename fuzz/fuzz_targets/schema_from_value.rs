//! `RequestedSchema::from_value` and `from_json` on arbitrary input; a schema that parses must
//! write itself out and read back the same.
#![no_main]

use elicit_core::schema::RequestedSchema;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = RequestedSchema::from_json(text);
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    if let Ok(schema) = RequestedSchema::from_value(value) {
        let _ = schema.lint();
        let wire = serde_json::to_string(&schema).expect("a schema serializes");
        let again = RequestedSchema::from_json(&wire).expect("what a schema writes reads back");
        assert_eq!(again.properties(), schema.properties());
    }
});
