//! The keys that bound a field's value, each asked of the field's type: `range` bounds a
//! number, and `length` a string or a multi-select. schemars writes either on any type, and
//! lowering would drop a bound the property cannot carry; asked here, the mistake is a compile
//! error at the key.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Path, Type};

use crate::attr::Origin;
use crate::model::Field;

/// The bound trait each key asks of the field's type, with the key's span.
pub fn bounds(field: &Field) -> Vec<(&'static str, Span)> {
    field
        .keys
        .iter()
        .filter(|key| key.attr != Origin::Serde)
        .filter_map(|key| {
            let bound = match key.name.as_str() {
                "range" => "TakesRange",
                "length" => "TakesLength",
                _ => return None,
            };
            Some((bound, key.path.span()))
        })
        .collect()
}

/// A check that the field's type has each bound its keys ask, reported at the key.
pub fn check(field: &Field, krate: &Path) -> TokenStream {
    let mut out = TokenStream::new();
    for (bound, span) in bounds(field) {
        let trait_ = Ident::new(bound, span);
        // The type's tokens carry the key's span, so the error points at the key.
        let ty = respan(field.ty.to_token_stream(), span);
        out.extend(quote_spanned! {span=>
            const _: fn() = || {
                fn __elicit_bounds<T: ?::core::marker::Sized + #krate::__private_v4::#trait_>() {}
                __elicit_bounds::<#ty>();
            };
        });
    }
    out
}

/// The where-clause predicates of a field whose type uses a type parameter.
pub fn predicates(field: &Field, krate: &Path) -> Vec<syn::WherePredicate> {
    let ty: &Type = field.ty;
    bounds(field)
        .into_iter()
        .map(|(bound, span)| {
            let trait_ = Ident::new(bound, span);
            syn::parse_quote_spanned!(span=> #ty: #krate::__private_v4::#trait_)
        })
        .collect()
}

/// `tokens`, every one of them at `span`.
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(group) => {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                TokenTree::Group(inner)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}
