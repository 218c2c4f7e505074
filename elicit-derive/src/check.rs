//! What MCP elicitation cannot express, refused at compile time with an error at the user's code.
//!
//! Field types are checked by the compiler instead (each field must implement `ElicitField`);
//! these checks cover the item's shape and the attributes that would change the schema or the
//! parse in ways MCP cannot carry.

use crate::ctxt::Ctxt;
use crate::keys;
use crate::model::{Container, Data};

pub fn check(cx: &Ctxt, cont: &Container) {
    check_shape(cx, cont);
    check_generics(cx, cont);
    keys::check(cx, cont);
    match &cont.data {
        Data::Form(_) => {
            check_choice_keys_on_form(cx, cont);
            check_has_fields(cx, cont);
            check_has_message(cx, cont);
            check_validate_on_skipped(cx, cont);
            check_sensitive(cx, cont);
            check_names(cx, cont);
            check_parts(cx, cont);
        }
        Data::Choice(_) => {
            check_variants(cx, cont);
            check_no_validate(cx, cont);
            check_form_keys_on_choice(cx, cont);
        }
        Data::Unsupported(_) => {}
    }
}

/// The message is the only text a person reads above the form, and MCP requires one: a form
/// without a doc comment or `#[elicit(message = "..")]` is refused rather than sent with a
/// message that says nothing about what is asked.
fn check_has_message(cx: &Ctxt, cont: &Container) {
    match &cont.attrs.message {
        Some(message) if message.value().trim().is_empty() => {
            cx.error_spanned_by(
                message,
                "the form's message is empty; write what is asked and why",
            );
        }
        Some(_) => {}
        None if cont.doc.is_none() => cx.error_spanned_by(
            &cont.input.ident,
            format!(
                "`{}` has no message to show above the form: add a doc comment, or \
                 `#[elicit(message = \"...\")]`",
                cont.input.ident
            ),
        ),
        None => {}
    }
}

/// A choice is one string: there is nothing for a validator to see that the schema does not.
fn check_no_validate(cx: &Ctxt, cont: &Container) {
    if let Some(path) = &cont.attrs.validate {
        cx.error_spanned_by(
            path,
            "`validate` goes on a form struct or its fields, not on a choice enum",
        );
    }
}

/// `enum_names` is how a choice enum writes its titles; a form has none of its own.
fn check_choice_keys_on_form(cx: &Ctxt, cont: &Container) {
    if let Some(path) = &cont.attrs.enum_names {
        cx.error_spanned_by(
            path,
            "`enum_names` goes on a choice enum, to write its titles as `enum` + `enumNames`",
        );
    }
}

/// The keys that shape a form's schema mean nothing on a choice enum.
fn check_form_keys_on_choice(cx: &Ctxt, cont: &Container) {
    for path in [&cont.attrs.no_auto_titles, &cont.attrs.no_bound_hints]
        .into_iter()
        .flatten()
    {
        cx.error_spanned_by(path, "this key goes on a form struct, not on a choice enum");
    }
}

fn check_shape(cx: &Ctxt, cont: &Container) {
    if let Data::Unsupported(what) = &cont.data {
        cx.error_spanned_by(
            &cont.input.ident,
            format!(
                "#[derive(Elicit)] cannot be used on {what}: a form is a struct with named fields, \
                 and a choice is an enum of unit variants"
            ),
        );
    }
}

fn check_generics(cx: &Ctxt, cont: &Container) {
    if let Some(lifetime) = cont.input.generics.lifetimes().next() {
        cx.error_spanned_by(
            lifetime,
            "#[derive(Elicit)] types cannot borrow: a form is read from untrusted JSON into owned values",
        );
    }
}

fn check_has_fields(cx: &Ctxt, cont: &Container) {
    if cont.form_fields().next().is_none() {
        cx.error_spanned_by(
            &cont.input.ident,
            "a form needs at least one field: clients render an empty form that cannot be \
             submitted, and the request hangs",
        );
    }
}

fn check_variants(cx: &Ctxt, cont: &Container) {
    let Data::Choice(variants) = &cont.data else {
        return;
    };
    if variants.is_empty() {
        cx.error_spanned_by(
            &cont.input.ident,
            "a choice enum needs at least one variant",
        );
    }
    for v in variants {
        if !matches!(v.variant.fields, syn::Fields::Unit) {
            cx.error_spanned_by(
                v.variant,
                "a choice enum can have only unit variants: MCP single- and multi-selects are lists of strings",
            );
        }
    }
}

/// A validator on a field serde never reads would never run.
fn check_validate_on_skipped(cx: &Ctxt, cont: &Container) {
    let Data::Form(fields) = &cont.data else {
        return;
    };
    for field in fields.iter().filter(|f| f.skipped()) {
        if let Some(path) = &field.attrs.validate {
            cx.error_spanned_by(path, "`validate` on a field serde skips would never run");
        }
    }
}

/// Since 2025-11-25, servers MUST NOT ask for passwords, API keys, tokens or payment credentials
/// in form mode. A field whose name says it is one is refused unless marked `not_sensitive`.
fn check_sensitive(cx: &Ctxt, cont: &Container) {
    for field in cont.form_fields() {
        if field.attrs.not_sensitive.is_some() {
            continue;
        }
        let hit = field
            .names()
            .find_map(|name| crate::sensitive::secret_word(&name).map(|word| (name, word)));
        if let Some((name, word)) = hit {
            cx.error_spanned_by(
                field.ident,
                format!(
                    "field `{name}` looks like it asks for a secret ({word}); MCP forbids requesting \
                     passwords, API keys, tokens or payment credentials in form mode, because form \
                     content passes through the client. Use URL mode instead: send the user to a \
                     page you control. If the field is not sensitive, mark it \
                     #[elicit(not_sensitive = \"why\")]"
                ),
            );
        }
    }
}

/// Two of a form's own fields that serde reads under one name: content would fill only one.
/// A name that `rename_all` makes is compared only where there is none; a part's names are
/// compared when the form's schema is built.
fn check_names(cx: &Ctxt, cont: &Container) {
    let renames_all = cont
        .keys
        .iter()
        .any(|k| k.attr == crate::attr::Origin::Serde && k.name == "rename_all");
    let mut seen: Vec<(String, &syn::Ident)> = Vec::new();
    for field in cont.form_fields().filter(|f| !f.flattened()) {
        let name = match field.wire_name() {
            Some(name) => name,
            None if renames_all => continue,
            None => field.ident.to_string().trim_start_matches("r#").to_owned(),
        };
        if let Some((_, first)) = seen.iter().find(|(seen, _)| *seen == name) {
            cx.error_spanned_by(
                field.ident,
                format!(
                    "`{}` and `{first}` are both read as `{name}`, so content would fill only \
                     one of them: rename one with `#[serde(rename = \"..\")]`",
                    field.ident
                ),
            );
            continue;
        }
        seen.push((name, field.ident));
    }
}

/// serde reads a form with parts as a map, and refuses no key of it: `deny_unknown_fields`
/// there would let unknown keys through unnoticed (serde does not support the two together).
fn check_parts(cx: &Ctxt, cont: &Container) {
    let Some(part) = cont.form_fields().find(|f| f.flattened()) else {
        return;
    };
    let deny = (cont.keys.iter())
        .find(|k| k.attr == crate::attr::Origin::Serde && k.name == "deny_unknown_fields");
    if let Some(deny) = deny {
        cx.error_spanned_by(
            &deny.path,
            format!(
                "`deny_unknown_fields` cannot be used on a form with parts: serde does not \
                 support it beside `#[serde(flatten)]` (on `{}`); drop it, or write the part's \
                 fields into this form",
                part.ident
            ),
        );
    }
}
