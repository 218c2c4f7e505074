//! A minimal impl emitted next to `compile_error!`, so that uses of the type elsewhere do not
//! add errors of their own: the user sees the one mistake they made.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::{choice_impls, dummy, form_where_clause, krate};
use crate::model::{Container, Data};

pub fn fallback(cont: &Container) -> TokenStream {
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
                    const __ELICIT_FIELDS: &'static [#krate::__private_v1::VariantsFn] = &[];

                    fn __elicit_cache() -> &'static #krate::__private_v1::SchemaCache {
                        #krate::__private_v1::SchemaCache::for_type::<Self>()
                    }
                }
            })
        }
        Data::Choice(_) => choice_impls(cont, &krate, quote!(&[]), false),
        Data::Unsupported(_) => TokenStream::new(),
    }
}
