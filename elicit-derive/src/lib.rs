//! `#[derive(Elicit)]`: the derive macro of `elicit-core`. Use it through `elicit_core::Elicit`.
//!
//! The macro runs a small pipeline: `attr` reads the attributes it needs, `model` builds a
//! borrowed model of the item, `check` (with `keys` for foreign attributes) refuses what MCP
//! elicitation cannot express, and `expand` writes the impl, with `features` and `kinds`
//! asking a field's type for what its type and its bounding keys need. When a check fails,
//! `expand` writes a minimal impl beside the errors, so that one mistake gives one error.
#![forbid(unsafe_code)]

mod attr;
mod check;
mod ctxt;
mod expand;
mod features;
mod keys;
mod kinds;
mod maps;
mod model;
mod sensitive;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `elicit_core::Elicit` for a struct with named fields (a form), or
/// `elicit_core::ElicitChoice` for an enum of unit variants (a choice). It derives neither
/// serde's `Deserialize` nor schemars' `JsonSchema`: the type derives both itself, beside
/// `Elicit`, and the schema and the reading follow their attributes:
///
/// ```ignore
/// /// Where would you like to go?
/// #[derive(Deserialize, JsonSchema, Elicit)]
/// struct Trip {
///     /// The city to visit
///     #[schemars(length(min = 1, max = 40))]
///     city: String,
///     #[schemars(range(min = 1, max = 30))]
///     nights: u8,
///     budget: Option<Budget>,
/// }
///
/// #[derive(Deserialize, JsonSchema, Elicit)]
/// enum Budget { Low, Medium, High }
/// ```
///
/// The form's message is its doc comment or `#[elicit(message = "..")]`; a form with neither
/// does not compile. A field's type decides its property: `String`, `bool`, integers, `f32` and
/// `f64`, a choice enum (a single-select), a `Vec`, `BTreeSet` or `HashSet` of one (a
/// multi-select), `elicit_core::Email` and the date, date-time and URL types of the `chrono`,
/// `time` and `url` features, and an `Option` of any of these (not required). Anything else is
/// a compile error at the field.
///
/// # Attributes
///
/// On the struct:
///
/// - `#[elicit(message = "..")]`: the message shown above the form, in place of the doc
///   comment.
/// - `#[elicit(validate = path)]`: a `fn(&Self) -> Result<(), elicit_core::Invalid>` run once
///   the schema's rules pass, for rules across fields.
/// - `#[elicit(no_auto_titles)]`: fields without `#[schemars(title)]` are sent untitled,
///   instead of with a title made from the name.
/// - `#[elicit(no_bound_hints)]`: descriptions are sent as written, without the field's
///   bounds in words.
/// - `#[elicit(crate = "path")]`: the path of `elicit_core`, for crates that re-export it.
///
/// On a field:
///
/// - `#[elicit(validate = path)]`: a `fn(&FieldType) -> Result<(), E>` with `E: Display` (a
///   `String` field's may take `&str`), run once the schema's rules pass.
/// - `#[elicit(not_sensitive = "reason")]`: the field's name looks like a secret (`token`,
///   `password`, ..), which form mode must not ask for, but it is not one.
///
/// On a choice enum:
///
/// - `#[elicit(enum_names)]`: titles are written as `enum` + `enumNames` on every protocol
///   version, instead of `oneOf`.
///
/// A field marked `#[serde(flatten)]` whose type derives `Elicit` is a part: its fields join
/// the form in its place, with their rules and checks, and the typed read builds it.
///
/// serde's `rename`, `rename_all`, `default`, `skip` and `deny_unknown_fields` and the
/// `#[schemars]` keys `title`, `description`, `email`, `url`, `length`, `range`, `required`
/// and `inline` shape the schema; keys that would make the schema and the parse disagree are
/// refused with their reason. The `elicit-core` documentation has an example of each
/// attribute.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
