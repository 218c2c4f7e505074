//! The fast pass over reply text against the full parse, on arbitrary input: wherever the fast
//! pass reads a reply, the full parse accepts it into the same value. Built with serde_json's
//! `float_roundtrip`, so floats are held to correctly rounded parsing here.
#![no_main]

use std::collections::BTreeSet;

use elicit_core::__private::{fast_pass, fast_pass_content, full_parse, full_parse_content};
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
    if let Some(fast) = fast_pass::<Form>(text) {
        match full_parse::<Form>(text) {
            Ok(ElicitResult::Accept(full)) => assert_eq!(format!("{fast:?}"), format!("{full:?}")),
            other => panic!("fast pass read {text:?}, full parse: {other:?}"),
        }
    }
    let schema = Form::requested_schema();
    if let Some(fast) = fast_pass_content(schema, text) {
        match full_parse_content(schema, text) {
            Ok(ElicitResult::Accept(full)) => assert_eq!(format!("{fast:?}"), format!("{full:?}")),
            other => panic!("fast pass read {text:?} as content, full parse: {other:?}"),
        }
    }
});
