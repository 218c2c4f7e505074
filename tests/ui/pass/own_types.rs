// A user's own types named as a feature's types need no feature, and a type parameter that
// only a skipped field uses is bound by nothing the form needs.
use std::marker::PhantomData;

use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// The user's own `Url`: a choice of sites.
#[derive(Deserialize, JsonSchema, Elicit)]
enum Url {
    Home,
    Docs,
}

mod dates {
    /// The user's own `NaiveDate`: a string alias.
    pub type NaiveDate = String;
}
use dates::NaiveDate;

/// Neither `Deserialize` nor `JsonSchema`.
struct Marker;

/// Fill in Visit.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Visit<M> {
    site: Url,
    back: Option<Url>,
    on: NaiveDate,
    #[serde(skip)]
    kind: PhantomData<M>,
}

pub fn check() {
    let schema = <Visit<Marker> as Elicit>::requested_schema();
    assert_eq!(schema.properties().len(), 3);
}
