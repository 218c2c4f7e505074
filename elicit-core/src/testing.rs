//! Hooks for this crate's own tests (feature `testing`): the fast pass and the reference parse
//! it is held to. Not a public API.

use crate::validate::{fast, run};
use crate::{Content, Elicit, ElicitError, ElicitResult, Limits, RequestedSchema};

/// The fast pass over reply text alone: the outcome it reads, or `None` where it gives up. For
/// the tests that hold it to the reference parse.
#[must_use]
pub fn fast_pass<T: Elicit>(json: &str) -> Option<ElicitResult<T>> {
    fast::read::<T>(T::requested_schema(), json, &Limits::DEFAULT).ok()
}

/// The reference parse: serde_json over the text straight into `T` (no fast pass), the report
/// pass where it fails; before `T`'s own checks.
pub fn reference_parse<T: Elicit>(json: &str) -> Result<ElicitResult<T>, ElicitError> {
    run::reference_str(T::requested_schema(), json, &Limits::DEFAULT)
}

/// [`fast_pass`] into the runtime's [`Content`].
#[must_use]
pub fn fast_pass_content(schema: &RequestedSchema, json: &str) -> Option<ElicitResult<Content>> {
    fast::read::<Content>(schema, json, &Limits::DEFAULT).ok()
}

/// [`reference_parse`] into the runtime's [`Content`].
pub fn reference_parse_content(
    schema: &RequestedSchema,
    json: &str,
) -> Result<ElicitResult<Content>, ElicitError> {
    run::reference_str(schema, json, &Limits::DEFAULT)
}

/// Builds `T`'s schema from scratch, skipping the cache: for the benchmark of a first use.
pub fn build_uncached<T: Elicit>() -> Result<RequestedSchema, crate::SchemaError> {
    crate::__private_v1::build::<T>()
}
