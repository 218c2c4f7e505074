//! The forms of the conformance suite's 2026-07-28 elicitation scenarios, with the messages
//! the suite expects: shared by the conformance servers of both SDKs.

use elicit_core::Elicit;

/// What is your name?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct UserName {
    pub name: String,
}

/// Please confirm
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Ok_ {
    pub ok: bool,
}

/// Step 1: What is your name?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Step1 {
    pub name: String,
}

/// Step 2: What is your favorite color?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Step2 {
    pub color: String,
}

/// What context should the prompt use?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct UserContext {
    pub context: String,
}
