//! `ElicitResult::<T>::from_json` (and its byte and serde entry points) on arbitrary input, for a
//! form with every field kind.
#![no_main]

use std::collections::BTreeSet;

use elicit_core::{Elicit, ElicitResult, Limits};
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
    ratio: Option<f64>,
    agree: bool,
    color: Option<Color>,
    colors: BTreeSet<Color>,
    list: Vec<Color>,
}

fuzz_target!(|data: &[u8]| {
    let _ = ElicitResult::<Form>::from_json(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let typed = elicit_core::Form::<Form>::new().with_limits(Limits::UNLIMITED).parse_reply_json(text);
        let serde = serde_json::from_str::<ElicitResult<Form>>(text);
        // The one-shot serde path and the reporting path reach the same verdict.
        assert_eq!(typed.is_ok(), serde.is_ok(), "{text}");
        if let Err(e) = typed {
            assert!(!e.violations().is_empty());
        }
    }
});
