//! `#[derive(Elicit)]`: the derive macro of `elicit-core`. Use it through `elicit_core::Elicit`.
//!
//! The macro runs a small pipeline: `attr` reads the attributes it needs, `model` builds a
//! borrowed model of the item, `check` (with `keys` for foreign attributes) refuses what MCP elicitation cannot express, and
//! `expand` writes the impl. When a check fails, `fallback` still writes a minimal impl so
//! that one mistake gives one error.

mod attr;
mod check;
mod ctxt;
mod expand;
mod fallback;
mod keys;
mod model;
mod sensitive;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `elicit_core::Elicit` for a named-field struct, or `elicit_core::ElicitChoice` for a
/// unit-only enum. See the `elicit-core` documentation.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
