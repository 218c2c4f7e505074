//! Fields whose type is one of the types an optional feature of elicit-core serves: each gets a
//! bound that, with the feature off, says which feature to turn on, beside the error that the
//! type is not a field.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::{GenericArgument, Path, PathArguments, Type};

/// The bound trait of the feature whose crate `ty` (or the `Option` it wraps) is a type of.
/// Only a path through the crate counts (`url::Url`, `chrono::NaiveDate`): a bare `Url` may be
/// the user's own type, which needs no feature.
fn feature_of(ty: &Type) -> Option<&'static str> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let segments = &path.path.segments;
    let last = segments.last()?;
    if last.ident == "Option" {
        return match &last.arguments {
            PathArguments::AngleBracketed(args) => match args.args.first() {
                Some(GenericArgument::Type(inner)) => feature_of(inner),
                _ => None,
            },
            _ => None,
        };
    }
    if segments.len() < 2 {
        return None;
    }
    let krate = segments[0].ident.to_string();
    match (krate.as_str(), last.ident.to_string().as_str()) {
        ("chrono", "NaiveDate" | "DateTime") => Some("NeedsChrono"),
        ("time", "Date" | "OffsetDateTime") => Some("NeedsTime"),
        ("url", "Url") => Some("NeedsUrl"),
        _ => None,
    }
}

/// The bound asking for `ty`'s feature, if it is one of a feature's types.
pub fn check(ty: &Type, krate: &Path) -> Option<TokenStream> {
    let bound = syn::Ident::new(feature_of(ty)?, ty.span());
    Some(quote_spanned! {ty.span()=>
        const _: fn() = || {
            fn __elicit_needs<T: ?::core::marker::Sized + #krate::__private_v4::#bound>() {}
            __elicit_needs::<#ty>();
        };
    })
}
