//! What MCP elicitation cannot express, refused at compile time with an error at the user's code.
//!
//! Field types are checked by the compiler instead (each field must implement `ElicitField`);
//! these checks cover the item's shape and the attributes that would change the schema or the
//! parse in ways MCP cannot carry.

use crate::attr::Key;
use crate::ctxt::Ctxt;
use crate::model::{Container, Data};

pub fn check(cx: &Ctxt, cont: &Container) {
    check_shape(cx, cont);
    check_generics(cx, cont);
    check_container_keys(cx, cont);
    match &cont.data {
        Data::Form(_) => {
            check_has_fields(cx, cont);
            check_field_keys(cx, cont);
            check_sensitive(cx, cont);
        }
        Data::Choice(_) => {
            check_variants(cx, cont);
            check_no_validate(cx, cont);
        }
        Data::Unsupported(_) => {}
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

/// serde container attributes that change what is read in ways a flat form cannot express.
const SERDE_CONTAINER: &[(&str, &str)] = &[
    ("transparent", "a form is an object of named fields"),
    (
        "from",
        "the schema would describe the other type, not this one",
    ),
    (
        "try_from",
        "the schema would describe the other type, not this one",
    ),
    (
        "remote",
        "the schema would describe the other type, not this one",
    ),
    (
        "tag",
        "a choice is sent as a plain string; tagged enums are objects",
    ),
    (
        "content",
        "a choice is sent as a plain string; tagged enums are objects",
    ),
    (
        "untagged",
        "a choice is sent as a plain string; untagged unit variants are null",
    ),
];

/// schemars container attributes the wire cannot carry.
const SCHEMARS_CONTAINER: &[(&str, &str)] = &[
    (
        "title",
        "the requestedSchema root cannot carry a title; use the doc comment or #[elicit(message = \"..\")]",
    ),
    (
        "description",
        "the requestedSchema root cannot carry a description; use the doc comment or #[elicit(message = \"..\")]",
    ),
    (
        "transform",
        "a transform can produce keywords MCP does not allow",
    ),
    ("extend", "extra keywords are outside the MCP schema subset"),
    (
        "with",
        "the schema would describe another type than the one parsed",
    ),
    (
        "schema_with",
        "the schema would not come from the type that is parsed",
    ),
    ("example", "MCP schemas have no examples"),
];

fn check_container_keys(cx: &Ctxt, cont: &Container) {
    for key in &cont.keys {
        let table = match key.attr {
            "serde" => SERDE_CONTAINER,
            "schemars" => SCHEMARS_CONTAINER,
            _ => continue,
        };
        if let Some((_, why)) = table.iter().find(|(name, _)| *name == key.name) {
            cx.error_spanned_by(
                &key.path,
                format!(
                    "`#[{}({})]` cannot be used with #[derive(Elicit)]: {why}",
                    key.attr, key.name
                ),
            );
        }
    }
}

/// serde field attributes that break the agreement between the schema and the parse.
const SERDE_FIELD: &[(&str, &str)] = &[
    (
        "flatten",
        "a form is flat: a flattened struct cannot be expressed",
    ),
    (
        "alias",
        "an alias would let content bypass validation under a name the schema does not list",
    ),
    (
        "with",
        "a custom deserializer may accept what the schema refuses, or refuse what it accepts",
    ),
    (
        "deserialize_with",
        "a custom deserializer may accept what the schema refuses, or refuse what it accepts",
    ),
];

/// schemars field keys a form may use; any other is refused, so nothing is silently dropped.
const SCHEMARS_FIELD_OK: &[&str] = &[
    "title",
    "description",
    "email",
    "url",
    "length",
    "range",
    "required",
    "rename",
    "skip",
    "skip_deserializing",
    "skip_serializing",
    "default",
    "inline",
];

/// validate/garde keys that schemars turns into keywords MCP does not allow.
const VALIDATOR_FIELD: &[&str] = &[
    "regex", "pattern", "contains", "inner", "ip", "ipv4", "ipv6",
];

fn check_field_keys(cx: &Ctxt, cont: &Container) {
    let Data::Form(fields) = &cont.data else {
        return;
    };
    for field in fields {
        if let Some(path) = &field.attrs.validate
            && field.skipped()
        {
            cx.error_spanned_by(path, "`validate` on a field serde skips would never run");
        }
        refuse_keys(cx, &field.keys, &FIELD_RULES);
    }
}

fn schemars_refusal(name: &str) -> String {
    match name {
        "regex" | "pattern" => "MCP schemas have no `pattern`; check it on the server with a \
                                custom rule and say the rule in the message"
            .into(),
        "contains" => "MCP schemas have no `contains`".into(),
        "ip" | "ipv4" | "ipv6" => {
            "MCP string formats are only email, uri, date and date-time".into()
        }
        "inner" => "list items cannot carry their own rules in MCP".into(),
        "example" => "MCP schemas have no examples".into(),
        _ => format!("`{name}` is not part of the MCP schema subset"),
    }
}

/// serde variant attributes that make a value other than the plain string the schema lists.
const SERDE_VARIANT: &[(&str, &str)] = &[
    (
        "alias",
        "an alias is accepted on parse but not offered as a choice",
    ),
    ("with", "a choice is a plain string"),
    ("deserialize_with", "a choice is a plain string"),
    ("untagged", "a choice is a plain string"),
];

const SCHEMARS_VARIANT_OK: &[&str] = &[
    "title",
    "description",
    "rename",
    "skip",
    "skip_deserializing",
    "skip_serializing",
];

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
        refuse_keys(cx, &v.keys, &VARIANT_RULES);
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

/// Which foreign attribute keys a place (a form field, a choice variant) refuses.
struct KeyRules {
    /// serde keys refused, with why.
    serde: &'static [(&'static str, &'static str)],
    /// schemars keys allowed; any other is refused.
    schemars_ok: &'static [&'static str],
    /// validate/garde keys refused.
    validators: &'static [&'static str],
    /// Where, for the message: "in an elicitation form", "on a choice".
    place: &'static str,
}

const FIELD_RULES: KeyRules = KeyRules {
    serde: SERDE_FIELD,
    schemars_ok: SCHEMARS_FIELD_OK,
    validators: VALIDATOR_FIELD,
    place: "in an elicitation form",
};

const VARIANT_RULES: KeyRules = KeyRules {
    serde: SERDE_VARIANT,
    schemars_ok: SCHEMARS_VARIANT_OK,
    validators: &[],
    place: "on a choice",
};

fn refuse_keys(cx: &Ctxt, keys: &[Key], rules: &KeyRules) {
    for key in keys {
        let name = key.name.as_str();
        let refusal = match key.attr {
            "serde" => rules
                .serde
                .iter()
                .find(|(refused, _)| *refused == name)
                .map(|(_, why)| (*why).to_owned()),
            "schemars" if !rules.schemars_ok.contains(&name) => Some(schemars_refusal(name)),
            "validate" | "garde" if rules.validators.contains(&name) => {
                Some(schemars_refusal(name))
            }
            _ => None,
        };
        if let Some(why) = refusal {
            cx.error_spanned_by(
                &key.path,
                format!(
                    "`#[{}({name})]` cannot be used {}: {why}",
                    key.attr, rules.place
                ),
            );
        }
    }
}
