//! Which keywords a schema object may carry, and what is done with the others.
//!
//! A keyword that constrains the value (JSON Schema's validation and applicator keywords) is
//! either enforced or the schema is refused: enforcing part of a schema would accept what its
//! author meant to refuse. JSON Schema applies most of them to one type of value only
//! (`minimum` to numbers, `minLength` to strings), so one written for another type than the
//! property's has no effect, and is linted. Annotations and unknown keywords change nothing
//! and are linted.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Lint;
use crate::error::SchemaError;
use crate::limits::Limits;

/// The JSON type a keyword constrains.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Applies {
    /// Every value, whatever its type.
    All,
    Strings,
    Numbers,
    Arrays,
    Objects,
    /// A boolean: no type-specific keyword constrains one.
    Booleans,
}

impl Applies {
    fn noun(self) -> &'static str {
        match self {
            Applies::All => "value",
            Applies::Strings => "string",
            Applies::Numbers => "number",
            Applies::Arrays => "array",
            Applies::Objects => "object",
            Applies::Booleans => "boolean",
        }
    }
}

/// JSON Schema's constraining keywords (draft 2020-12 and the older spellings), by what they
/// apply to. `nullable` (OpenAPI) widens the type, which ignoring it would undo.
const CONSTRAINING: &[(&str, Applies)] = &[
    ("type", Applies::All),
    ("enum", Applies::All),
    ("const", Applies::All),
    ("allOf", Applies::All),
    ("anyOf", Applies::All),
    ("oneOf", Applies::All),
    ("not", Applies::All),
    ("if", Applies::All),
    ("then", Applies::All),
    ("else", Applies::All),
    ("$ref", Applies::All),
    ("$dynamicRef", Applies::All),
    ("$recursiveRef", Applies::All),
    ("nullable", Applies::All),
    ("minLength", Applies::Strings),
    ("maxLength", Applies::Strings),
    ("pattern", Applies::Strings),
    ("format", Applies::Strings),
    ("minimum", Applies::Numbers),
    ("maximum", Applies::Numbers),
    ("exclusiveMinimum", Applies::Numbers),
    ("exclusiveMaximum", Applies::Numbers),
    ("multipleOf", Applies::Numbers),
    ("items", Applies::Arrays),
    ("prefixItems", Applies::Arrays),
    ("additionalItems", Applies::Arrays),
    ("unevaluatedItems", Applies::Arrays),
    ("contains", Applies::Arrays),
    ("minContains", Applies::Arrays),
    ("maxContains", Applies::Arrays),
    ("minItems", Applies::Arrays),
    ("maxItems", Applies::Arrays),
    ("uniqueItems", Applies::Arrays),
    ("properties", Applies::Objects),
    ("patternProperties", Applies::Objects),
    ("additionalProperties", Applies::Objects),
    ("unevaluatedProperties", Applies::Objects),
    ("propertyNames", Applies::Objects),
    ("required", Applies::Objects),
    ("minProperties", Applies::Objects),
    ("maxProperties", Applies::Objects),
    ("dependentRequired", Applies::Objects),
    ("dependentSchemas", Applies::Objects),
    ("dependencies", Applies::Objects),
];

/// Annotations JSON Schema defines: they describe the value and constrain nothing.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$schema",
    "$vocabulary",
    "$defs",
    "definitions",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// Keywords outside the MCP subset that are enforced where they apply; noted by `lint`.
const ENFORCED_EXTRAS: &[&str] = &[
    "pattern",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "uniqueItems",
];

/// What reading one schema needs: the limits it is read under, and what `lint` will report.
pub(super) struct Reader {
    pub(super) lints: Vec<Lint>,
    pub(super) limits: Limits,
    /// Each property's name as read, in order, shared by its lints.
    pub(super) names: Vec<Arc<str>>,
}

impl Reader {
    pub(super) fn new(limits: Limits) -> Self {
        Reader {
            lints: Vec::new(),
            limits,
            names: Vec::new(),
        }
    }

    /// Notes something about `property` (`None`: the root). A property's lints share its name.
    pub(super) fn push(&mut self, property: Option<&Arc<str>>, message: impl Into<String>) {
        self.lints.push(Lint {
            property: property.cloned(),
            message: message.into(),
        });
    }

    /// Checks every keyword of `obj`, a schema for values of type `applies`: those in
    /// `understood` are read by the caller; a constraining keyword that applies to the value and
    /// is not understood refuses the schema; the rest are linted. `at` prefixes the keyword in
    /// messages (`items.` for a multi-select's items).
    pub(super) fn keywords(
        &mut self,
        name: Option<&Arc<str>>,
        at: &str,
        obj: &Map<String, Value>,
        applies: Applies,
        understood: &[&[&str]],
    ) -> Result<(), SchemaError> {
        for key in obj.keys() {
            let key = key.as_str();
            if understood.iter().any(|words| words.contains(&key)) {
                if ENFORCED_EXTRAS.contains(&key) {
                    self.push(name, format!("`{at}{key}` is outside the MCP schema subset; it is enforced here, but clients may refuse the schema"));
                }
                continue;
            }
            match CONSTRAINING.iter().find(|(k, _)| *k == key) {
                Some((_, to)) if *to == Applies::All || *to == applies => {
                    let message = format!(
                        "`{at}{key}` cannot be enforced on this {}, so the schema is refused rather than enforced in part",
                        applies.noun()
                    );
                    return Err(match name {
                        Some(name) => SchemaError::property(&**name, message),
                        None => SchemaError::root(message),
                    });
                }
                Some((_, to)) => self.push(
                    name,
                    format!(
                        "`{at}{key}` applies to {}s and has no effect on a {}",
                        to.noun(),
                        applies.noun()
                    ),
                ),
                None if ANNOTATIONS.contains(&key) => self.push(
                    name,
                    format!(
                        "`{at}{key}` is an annotation outside the MCP schema subset; it is ignored"
                    ),
                ),
                None => self.push(
                    name,
                    format!("`{at}{key}` is not a JSON Schema keyword; it is ignored"),
                ),
            }
        }
        Ok(())
    }
}
