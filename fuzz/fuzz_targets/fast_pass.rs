//! The fast pass and the whole parse of reply text against the reference parse (serde_json
//! straight into the target), on arbitrary input: wherever the fast pass reads a reply, the
//! reference accepts it into the same value, and the whole parse always reaches the reference's
//! verdict. Built with serde_json's `float_roundtrip`, so floats are held to correctly rounded
//! parsing here.
#![no_main]

use std::collections::BTreeSet;

use elicit_core::__testing::{
    fast_pass, fast_pass_content, reference_parse, reference_parse_content,
};
use elicit_core::{Elicit, ElicitResult};
use libfuzzer_sys::fuzz_target;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, JsonSchema, Elicit)]
enum Color {
    /// Red
    Red,
    Green,
}

/// Fill in Form.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Form {
    #[schemars(length(min = 1, max = 8))]
    name: String,
    #[schemars(email)]
    email: Option<String>,
    #[schemars(range(min = 1, max = 100))]
    age: u8,
    offset: Option<i64>,
    ratio: Option<f64>,
    single: Option<f32>,
    agree: bool,
    color: Option<Color>,
    colors: Option<BTreeSet<Color>>,
    list: Option<Vec<Color>>,
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Values are compared as `Debug` text, so `-0.0` differs from `0.0`.
    let debug = |v: &dyn std::fmt::Debug| format!("{v:?}");
    let reference = reference_parse::<Form>(text);
    if let Some(fast) = fast_pass::<Form>(text) {
        assert!(
            reference.is_ok(),
            "fast pass read {text:?}, reference: {reference:?}"
        );
        assert_eq!(debug(&fast), debug(&reference.as_ref().unwrap()));
    }
    // The whole parse (the fast pass, or the full parse where it gives up) reaches the
    // reference's verdict, value and violations. Not past 125 levels of nesting: there a value
    // under a key the form does not name is refused by the whole parse where the reference,
    // which skips it, accepts (see `Reader::other`).
    let whole = ElicitResult::<Form>::from_json(text);
    if nesting(text) <= 125 {
        assert_eq!(debug(&whole), debug(&reference), "{text:?}");
    }

    let schema = Form::requested_schema();
    let reference = reference_parse_content(schema, text);
    if let Some(fast) = fast_pass_content(schema, text) {
        assert_eq!(Ok(fast), reference, "{text:?}");
    }
    let whole = schema.parse_result_json(text);
    if nesting(text) <= 125 {
        assert_eq!(whole.is_ok(), reference.is_ok(), "{text:?}");
        if let (Err(a), Err(b)) = (&whole, &reference) {
            assert_eq!(a, b, "{text:?}");
        }
    }
});

/// How deeply brackets nest in `text`, strings aside (over-counting in broken text is fine).
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for b in text.bytes() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            b'[' | b'{' if !in_string => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}
