//! The foreign attribute keys (`serde`, `schemars`, `validate`, `garde`) a form refuses.
//!
//! One policy at every place (the container, a field, a variant):
//! - `schemars` keys are allowed only when listed: schemars writes the schema, so a key not
//!   known to lower exactly could put anything on the wire, or describe something other than
//!   what serde reads.
//! - `serde`, `validate` and `garde` keys are refused only when listed: they change the parse or
//!   add server-side checks, and their own derives reject unknown keys.
//!
//! Fields serde skips are not checked: neither the schema nor the parse sees them.

use crate::attr::{Key, Origin};
use crate::ctxt::Ctxt;
use crate::model::{Container, Data};

pub fn check(cx: &Ctxt, cont: &Container) {
    refuse(cx, &cont.keys, &CONTAINER);
    match &cont.data {
        Data::Form(_) => {
            for field in cont.form_fields() {
                refuse(cx, &field.keys, &FIELD);
            }
        }
        Data::Choice(variants) => {
            for variant in variants {
                refuse(cx, &variant.keys, &VARIANT);
            }
        }
        Data::Unsupported(_) => {}
    }
}

/// What one place allows and refuses.
struct Rules {
    /// Where, for the message: "on a form or choice", "in an elicitation form", "on a choice".
    place: &'static str,
    /// The container: its title and description would be the schema root's.
    root: bool,
    /// `schemars` keys allowed; any other is refused.
    schemars_ok: &'static [&'static str],
    /// `serde` keys refused, with why.
    serde: &'static [(&'static str, &'static str)],
    /// `validate` and `garde` keys refused.
    validators: &'static [&'static str],
}

const CONTAINER: Rules = Rules {
    place: "on an elicitation form or choice",
    root: true,
    // `rename` names the schema for reuse elsewhere; a requestedSchema is inlined and unnamed.
    schemars_ok: &["crate", "rename", "inline", "bound"],
    serde: SERDE_CONTAINER,
    validators: &[],
};

const FIELD: Rules = Rules {
    place: "in an elicitation form",
    root: false,
    schemars_ok: &[
        "title",
        "description",
        "email",
        "url",
        "length",
        "range",
        "required",
        "inline",
    ],
    serde: SERDE_FIELD,
    validators: VALIDATOR_FIELD,
};

const VARIANT: Rules = Rules {
    place: "on a choice",
    root: false,
    schemars_ok: &["title", "description"],
    serde: SERDE_VARIANT,
    validators: &[],
};

/// serde container keys that change what is read in ways a flat form cannot express.
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

/// serde field keys that break the agreement between the schema and the parse.
const SERDE_FIELD: &[(&str, &str)] = &[
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

/// validate/garde field keys that schemars turns into keywords MCP does not allow.
const VALIDATOR_FIELD: &[&str] = &[
    "regex", "pattern", "contains", "inner", "ip", "ipv4", "ipv6",
];

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

fn refuse(cx: &Ctxt, keys: &[Key], rules: &Rules) {
    for key in keys {
        let name = key.name.as_str();
        let why = match key.attr {
            Origin::Schemars if !rules.schemars_ok.contains(&name) => {
                Some(schemars_refusal(name, rules))
            }
            Origin::Serde => rules
                .serde
                .iter()
                .find(|(refused, _)| *refused == name)
                .map(|(_, why)| (*why).to_owned()),
            Origin::Validate | Origin::Garde if rules.validators.contains(&name) => {
                Some(schemars_refusal(name, rules))
            }
            _ => None,
        };
        if let Some(why) = why {
            cx.error_spanned_by(
                &key.path,
                format!(
                    "`#[{}({name})]` cannot be used {}: {why}",
                    key.attr.name(),
                    rules.place
                ),
            );
        }
    }
}

/// The keys schemars shares with serde. Written in `#[schemars(..)]` they change the schema
/// only, so the form would list what serde does not read.
const SERDE_SHARED: &[&str] = &[
    "rename",
    "rename_all",
    "rename_all_fields",
    "deny_unknown_fields",
    "tag",
    "content",
    "untagged",
    "default",
    "skip",
    "skip_serializing",
    "skip_serializing_if",
    "skip_deserializing",
    "flatten",
    "remote",
    "transparent",
    "into",
    "from",
    "try_from",
];

fn schemars_refusal(name: &str, rules: &Rules) -> String {
    match name {
        "title" | "description" if rules.root => format!(
            "the requestedSchema root cannot carry a {name}; use the doc comment or \
             #[elicit(message = \"..\")]"
        ),
        _ if SERDE_SHARED.contains(&name) => format!(
            "in #[schemars] it changes the schema but not what serde reads, so the form and \
             the parse would disagree; write it as #[serde({name})]"
        ),
        "regex" | "pattern" => "MCP schemas have no `pattern`; check it on the server with a \
                                custom rule and say the rule in the message"
            .into(),
        "contains" => "MCP schemas have no `contains`".into(),
        "ip" | "ipv4" | "ipv6" => {
            "MCP string formats are only email, uri, date and date-time".into()
        }
        "inner" => "list items cannot carry their own rules in MCP".into(),
        "example" => "MCP schemas have no examples".into(),
        "transform" => "a transform can produce keywords MCP does not allow".into(),
        "extend" => "extra keywords are outside the MCP schema subset".into(),
        "with" | "schema_with" => {
            "the schema would describe another type than the one parsed".into()
        }
        _ => format!("`{name}` is not part of the MCP schema subset"),
    }
}
