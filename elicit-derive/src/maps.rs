//! Map fields, which a form cannot hold: told in their own words at the field, rather than
//! through the compiler's list of the types a field can have.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::{GenericArgument, PathArguments, Type};

/// Whether `ty` (or the `Option` it wraps) is a map: `HashMap`, `BTreeMap`, `IndexMap`, or
/// `serde_json::Map`, by the last segment of its path.
pub fn is_map(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    let segments = &path.path.segments;
    let Some(last) = segments.last() else {
        return false;
    };
    let name = last.ident.to_string();
    match name.as_str() {
        "Option" => match &last.arguments {
            PathArguments::AngleBracketed(args) => match args.args.first() {
                Some(GenericArgument::Type(inner)) => is_map(inner),
                _ => false,
            },
            _ => false,
        },
        "HashMap" | "BTreeMap" | "IndexMap" => true,
        "Map" => segments.first().is_some_and(|s| s.ident == "serde_json"),
        _ => false,
    }
}

/// The error at a map field.
pub fn error(ty: &Type) -> TokenStream {
    quote_spanned! {ty.span()=>
        ::core::compile_error!(
            "a map cannot be a field of an MCP elicitation form: a form is flat, with a fixed \
             set of named fields a person fills in; ask for each entry as a field of its own, \
             and group fields to reuse in a struct that derives `Elicit`, flattened here with \
             `#[serde(flatten)]`"
        );
    }
}
