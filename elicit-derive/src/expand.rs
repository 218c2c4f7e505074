//! Writing the impls. Generated code is small on purpose: the schema is built at run time by
//! `elicit-core` from the type's schemars schema, so each derive emits a handful of items.

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Path, Type, WhereClause, parse_quote};

use crate::check;
use crate::ctxt::Ctxt;
use crate::features;
use crate::kinds;
use crate::maps;
use crate::model::{Container, Data};

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    check::check(&cx, &cont);
    match cx.check() {
        Ok(()) => match &cont.data {
            Data::Form(_) => form(&cont),
            Data::Choice(_) => choice(&cont),
            Data::Unsupported(_) => TokenStream::new(),
        },
        Err(errors) => {
            let errors = errors.into_compile_error();
            let fallback = fallback(&cont);
            quote!(#errors #fallback)
        }
    }
}

/// A minimal impl emitted next to `compile_error!`, so that uses of the type elsewhere do not
/// add errors of their own: the user sees the one mistake they made.
fn fallback(cont: &Container) -> TokenStream {
    let krate = krate(cont);
    match &cont.data {
        Data::Form(_) => {
            let ident = &cont.input.ident;
            let (impl_generics, ty_generics, _) = cont.input.generics.split_for_impl();
            let where_clause = form_where_clause(cont, &krate);
            dummy(quote! {
                #[automatically_derived]
                impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
                    const __ELICIT_MESSAGE: &'static ::core::primitive::str = "";
                    const __ELICIT_FIELDS: &'static [#krate::__private_v4::FieldHooks] = &[];

                    fn __elicit_cache() -> &'static #krate::__private_v4::SchemaCache {
                        #krate::__private_v4::SchemaCache::for_type::<Self>()
                    }
                }
            })
        }
        Data::Choice(_) => choice_impls(cont, &krate, quote!(&[]), false),
        Data::Unsupported(_) => TokenStream::new(),
    }
}

fn krate(cont: &Container) -> Path {
    cont.attrs
        .krate
        .clone()
        .unwrap_or_else(|| parse_quote!(::elicit_core))
}

/// Wraps impls so their helper names stay out of the user's namespace.
fn dummy(items: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications)]
        const _: () = {
            #items
        };
    }
}

/// The item's where-clause, plus what `Elicit` needs of each type parameter: `'static` of
/// every one, and what serde and schemars need of those the form's fields use. A parameter only
/// skipped fields use (a `PhantomData` marker) is bound by neither derive, nor here.
fn form_where_clause(cont: &Container, krate: &Path) -> WhereClause {
    let generics = &cont.input.generics;
    let mut clause = generics
        .where_clause
        .clone()
        .unwrap_or_else(|| parse_quote!(where));
    for param in generics.type_params() {
        let ident = &param.ident;
        let used = cont.form_fields().any(|f| mentions(f.ty, &[ident]));
        clause.predicates.push(if used {
            parse_quote! {
                #ident: #krate::__private_v4::serde::de::DeserializeOwned
                    + #krate::__private_v4::schemars::JsonSchema
                    + 'static
            }
        } else {
            parse_quote!(#ident: 'static)
        });
    }
    clause
}

fn form(cont: &Container) -> TokenStream {
    let krate = krate(cont);
    let ident = &cont.input.ident;
    let (impl_generics, ty_generics, _) = cont.input.generics.split_for_impl();
    let mut where_clause = form_where_clause(cont, &krate);
    let params: Vec<&Ident> = cont
        .input
        .generics
        .type_params()
        .map(|p| &p.ident)
        .collect();
    let mut features = TokenStream::new();
    for field in cont.form_fields() {
        let ty = field.ty;
        // A part is a form of its own, whatever its type's parameters.
        // A part is checked where its fields are listed below, with the error at the field.
        if field.flattened() {
            if mentions(ty, &params) {
                where_clause
                    .predicates
                    .push(parse_quote!(#ty: #krate::Elicit));
            }
            continue;
        }
        if maps::is_map(ty) {
            features.extend(maps::error(ty));
            continue;
        }
        // A field whose type uses a parameter constrains the impl; a concrete type is checked
        // where its variants are listed below, with the error at the field.
        if mentions(ty, &params) {
            where_clause
                .predicates
                .push(parse_quote!(#ty: #krate::ElicitField));
            where_clause
                .predicates
                .extend(kinds::predicates(field, &krate));
        } else {
            features.extend(features::check(ty, &krate));
            features.extend(kinds::check(field, &krate));
            // A form of its own is a field type to the compiler, but not to MCP. The bound's
            // error, where the type is no field at all, is the one its hooks' give below.
            let check = quote! {
                const _: () = {
                    #[allow(unused_imports)]
                    use #krate::__private_v4::NotAPart as _;
                    ::core::assert!(
                    !#krate::__private_v4::PartProbe::<#ty>::IS_PART,
                    "this field holds a form of its own, and MCP forms are flat: add \
                     `#[serde(flatten)]` to the field, so that its form's fields join this one",
                    )
                };
            };
            features.extend(kinds::respan(check, ty.span()));
        }
    }
    // `check` refused a form with neither.
    let message = cont
        .attrs
        .message
        .as_ref()
        .map(|m| m.value())
        .or(cont.doc.clone())
        .unwrap_or_default();
    let hooks = cont.form_fields().map(|field| {
        let ty: &Type = field.ty;
        if field.flattened() {
            return quote_spanned! {ty.span()=>
                #krate::__private_v4::FieldHooks::part(
                    <#ty as #krate::__private_v4::ElicitPart>::PART.fields,
                )
            };
        }
        // Its error is said above; the hooks of a text field keep it the only one.
        let ty = match maps::is_map(ty) {
            true => &parse_quote!(::std::string::String),
            false => ty,
        };
        quote_spanned! {ty.span()=>
            #krate::__private_v4::FieldHooks {
                variants: <#ty as #krate::ElicitField>::__elicit_variants,
                enum_names: <#ty as #krate::ElicitField>::__elicit_enum_names,
                option: <#ty as #krate::ElicitField>::__elicit_is_option,
                part: ::core::option::Option::None,
            }
        }
    });
    let own_names = own_names(cont, &krate);
    let cache = if cont.input.generics.params.is_empty() {
        quote! {
            static __ELICIT_CACHE: #krate::__private_v4::SchemaCache =
                #krate::__private_v4::SchemaCache::new();
            &__ELICIT_CACHE
        }
    } else {
        quote!(#krate::__private_v4::SchemaCache::for_type::<Self>())
    };
    let validate = validate_fn(cont, &krate);
    let auto_titles = cont.attrs.no_auto_titles.as_ref().map(|_| {
        quote!(
            const __ELICIT_AUTO_TITLES: ::core::primitive::bool = false;
        )
    });
    let bound_hints = cont.attrs.no_bound_hints.as_ref().map(|_| {
        quote!(
            const __ELICIT_BOUND_HINTS: ::core::primitive::bool = false;
        )
    });
    dummy(quote! {
        #features

        #[automatically_derived]
        impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
            const __ELICIT_MESSAGE: &'static ::core::primitive::str = #message;
            #auto_titles
            #bound_hints
            const __ELICIT_FIELDS: &'static [#krate::__private_v4::FieldHooks] = &[#(#hooks),*];

            fn __elicit_cache() -> &'static #krate::__private_v4::SchemaCache {
                #cache
            }

            #own_names
            #validate
        }

        #[automatically_derived]
        #[diagnostic::do_not_recommend]
        impl #impl_generics #krate::ElicitField for #ident #ty_generics #where_clause {
            fn __elicit_variants() -> ::core::option::Option<&'static [&'static ::core::primitive::str]> {
                ::core::option::Option::None
            }
            fn __elicit_enum_names() -> ::core::primitive::bool {
                false
            }
            fn __elicit_is_option() -> ::core::primitive::bool {
                false
            }
            const __ELICIT_PART: ::core::primitive::bool = true;
        }
    })
}

/// Where the form has `#[serde(flatten)]` parts, which serde reads as a map without listing
/// its fields: the names of its own fields, as serde's derive lists them for a struct of those
/// fields alone with the same renames.
fn own_names(cont: &Container, krate: &Path) -> TokenStream {
    if !cont.form_fields().any(crate::model::Field::flattened) {
        return TokenStream::new();
    }
    let serde_path = quote!(#krate::__private_v4::serde).to_string();
    let renames = |keys: &[crate::attr::Key], names: &[&str]| -> Vec<TokenStream> {
        keys.iter()
            .filter(|k| k.attr == crate::attr::Origin::Serde && names.contains(&k.name.as_str()))
            .map(|k| {
                let tokens = &k.tokens;
                quote!(#[serde(#tokens)])
            })
            .collect()
    };
    let container = renames(&cont.keys, &["rename_all"]);
    let fields = cont.form_fields().filter(|f| !f.flattened()).map(|field| {
        let ident = field.ident;
        let attrs = renames(&field.keys, &["rename"]);
        quote! {
            #(#attrs)*
            #ident: #krate::__private_v4::serde::de::IgnoredAny
        }
    });
    quote! {
        fn __elicit_own_names() -> &'static [&'static ::core::primitive::str] {
            #[derive(#krate::__private_v4::serde::Deserialize)]
            #[serde(crate = #serde_path)]
            #(#container)*
            #[allow(dead_code)]
            struct __ElicitOwnFields {
                #(#fields),*
            }
            #krate::__private_v4::fields_of::<__ElicitOwnFields>()
        }
    }
}

/// The call of each `#[elicit(validate = ..)]` function and each part's own checks, fields in
/// order, then the struct's.
fn validate_fn(cont: &Container, krate: &Path) -> TokenStream {
    let out = quote!(__elicit_violations);
    let own = cont.form_fields().filter(|f| !f.flattened());
    let fields = own.enumerate().filter_map(|(index, field)| {
        let path = field.attrs.validate.as_ref()?;
        let member = field.ident;
        let fallback = member.to_string();
        Some(quote_spanned! {path.span()=>
            #krate::__private_v4::check_field(
                #out,
                #krate::__private_v4::field_name(
                    <Self as #krate::Elicit>::__elicit_own_names(),
                    #index,
                    #fallback,
                ),
                #path(&self.#member),
            );
        })
    });
    let parts = cont.form_fields().filter(|f| f.flattened()).map(|field| {
        let (member, ty) = (field.ident, field.ty);
        quote_spanned! {ty.span()=>
            (<#ty as #krate::__private_v4::ElicitPart>::PART.validate)(&self.#member, #out);
        }
    });
    let fields: Vec<TokenStream> = fields.chain(parts).collect();
    let form = cont.attrs.validate.as_ref().map(|path| {
        quote_spanned! {path.span()=>
            #krate::__private_v4::check_form(#out, #path(self));
        }
    });
    if fields.is_empty() && form.is_none() {
        return TokenStream::new();
    }
    quote! {
        fn __elicit_validate(&self, #out: &mut ::std::vec::Vec<#krate::Violation>) {
            #(#fields)*
            #form
        }
    }
}

fn choice(cont: &Container) -> TokenStream {
    let krate = krate(cont);
    choice_impls(
        cont,
        &krate,
        quote!(#krate::__private_v4::variants_of::<Self>()),
        cont.attrs.enum_names.is_some(),
    )
}

fn choice_impls(
    cont: &Container,
    krate: &Path,
    variants: TokenStream,
    enum_names: bool,
) -> TokenStream {
    let ident = &cont.input.ident;
    let enum_names = enum_names.then(|| {
        quote! {
            fn __elicit_enum_names() -> ::core::primitive::bool {
                true
            }
        }
    });
    let (impl_generics, ty_generics, where_clause) = cont.input.generics.split_for_impl();
    // Both impls read the list through a function whose bound is `ElicitChoice` alone: a missing
    // `Deserialize` or `JsonSchema` is then reported once, by the `ElicitChoice` impl.
    dummy(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::ElicitValue for #ident #ty_generics #where_clause {
            fn __elicit_variants() -> ::core::option::Option<&'static [&'static ::core::primitive::str]> {
                ::core::option::Option::Some(#variants)
            }
            #enum_names
        }

        #[automatically_derived]
        impl #impl_generics #krate::ElicitChoice for #ident #ty_generics #where_clause {
            fn variants() -> &'static [&'static ::core::primitive::str] {
                #variants
            }
        }
    })
}

/// Whether `ty` names any of `params`.
fn mentions(ty: &Type, params: &[&Ident]) -> bool {
    fn walk(tokens: TokenStream, params: &[&Ident]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            TokenTree::Ident(ident) => params.iter().any(|p| **p == ident),
            TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    !params.is_empty() && walk(ty.to_token_stream(), params)
}
