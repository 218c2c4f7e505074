//! Fields whose type belongs to one of elicit-core's optional features: each gets a bound that,
//! with the feature off, says which feature to turn on, beside the error that the type is not
//! a field.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::{GenericArgument, Path, PathArguments, Type};

/// The bound trait of the feature `ty` (or the `Option` it wraps) is named for, if any.
fn feature_of(ty: &Type) -> Option<&'static str> {
    let Type::Path(path) = ty else { return None };
    let segments = &path.path.segments;
    let last = segments.last()?;
    let crate_is = |name: &str| segments.len() > 1 && segments[0].ident == name;
    match last.ident.to_string().as_str() {
        "Option" => match &last.arguments {
            PathArguments::AngleBracketed(args) => match args.args.first() {
                Some(GenericArgument::Type(inner)) => feature_of(inner),
                _ => None,
            },
            _ => None,
        },
        "NaiveDate" | "DateTime" => Some("NeedsChrono"),
        "OffsetDateTime" => Some("NeedsTime"),
        "Date" if crate_is("time") => Some("NeedsTime"),
        "Url" => Some("NeedsUrl"),
        _ => None,
    }
}

/// The bound asking for `ty`'s feature, if its name is one of a feature's types.
pub fn check(ty: &Type, krate: &Path) -> Option<TokenStream> {
    let bound = syn::Ident::new(feature_of(ty)?, ty.span());
    Some(quote_spanned! {ty.span()=>
        const _: fn() = || {
            fn __elicit_needs<T: ?::core::marker::Sized + #krate::__private_v1::#bound>() {}
            __elicit_needs::<#ty>();
        };
    })
}
