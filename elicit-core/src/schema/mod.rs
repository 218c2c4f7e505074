//! The requestedSchema model: a flat object of primitive properties, exactly the MCP subset, with
//! what each property holds and the rules its value must keep.
//!
//! A [`RequestedSchema`] comes from three places: `T::requested_schema()` for a derived type,
//! [`RequestedSchema::from_value`] for a schema that arrives as JSON, and
//! [`RequestedSchema::builder`] for one built in code. All three are the same type, read by the
//! same rules.
//!
//! # Forms built at run time
//!
//! When the whole form is known only at run time, build it without struct literals. Each kind's
//! builder ([`Field`]) offers exactly the keywords of the MCP subset. `build()` reads every
//! field back through the same parser as a schema that arrives as JSON, so it refuses (a bound
//! above its other bound, no choices, a repeated choice or name) and lints (a default that
//! breaks its own rules) exactly what that parser does, and the form keeps the order it was
//! built in. The builder is the one way to make a schema in code: [`Property`] and [`Kind`] are
//! for reading, and a property read from another schema is a field too, so a proxy that keeps,
//! drops or changes a form's properties builds the new form from them.
//!
//! ```
//! use elicit_core::schema::{Field, Format, RequestedSchema};
//!
//! let schema = RequestedSchema::builder()
//!     .field(Field::select("repo", ["api", "web"]).title("Repository").required())
//!     .field(Field::string("email").title("Email").format(Format::Email))
//!     .field(Field::integer("reviewers").title("Reviewers").range(1, 5).default(2))
//!     .field(Field::titled_select("plan", [("free", "Free"), ("team", "Team")]))
//!     .field(Field::multi_select("labels", ["bug", "docs"]).min_items(1))
//!     .field(Field::boolean("draft").default(false))
//!     .build()?;
//!
//! let reply = r#"{"action":"accept","content":{"repo":"web","labels":["docs"]}}"#;
//! let content = schema.parse_reply_json(reply)?.accepted().unwrap();
//! assert_eq!(content["reviewers"], 2); // the default, filled in
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Schemas that arrive as JSON
//!
//! Clients, proxies and tests receive schemas as JSON. [`RequestedSchema::from_json`] reads them
//! with the same rules the typed path uses (`T::requested_schema()` is itself a
//! `RequestedSchema`), keeping their property order.
//!
//! ```
//! use elicit_core::schema::RequestedSchema;
//! use serde_json::json;
//!
//! let schema = RequestedSchema::from_json(
//!     r#"{"type":"object","properties":{"age":{"type":"integer","minimum":0},"score":{"type":"number","exclusiveMinimum":0}},"required":["age"]}"#,
//! )?;
//! // What is outside the strict MCP subset, for server authors.
//! assert!(schema.lint().iter().any(|lint| lint.to_string().contains("exclusiveMinimum")));
//! // Server side: the reply as `ElicitResult<Content>`, defaults filled.
//! let reply = json!({"action": "accept", "content": {"age": 42}});
//! assert_eq!(schema.parse_reply_value(&reply)?.accepted().unwrap()["age"], 42);
//! // Client side: what the person typed, before it is sent.
//! assert_eq!(schema.coerce_text("age", "42")?, Some(json!(42)));
//! let typed = json!({"age": -1}).as_object().unwrap().clone();
//! assert!(schema.validate_content(&typed).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Accepted content comes back as serde_json's `Map<String, Value>` ([`Content`](crate::Content)
//! names it), the map rmcp and every serde user already hold: every key sent, the schema's
//! defaults filled in for the properties left out, in serde_json's order (insertion order with
//! `preserve_order`, which the `rmcp` and `preserve-order` features turn on; sorted without).
//!
//! - **Strict about structure.** Refused, with an error naming the property: a root that is not
//!   `type: object`; missing or non-object `properties`; nested objects; arrays whose items are not
//!   an enum; `anyOf`/`oneOf` unions other than titled enums; `$ref`; a `null` type; type arrays; a
//!   `format` other than email, uri, date and date-time; keywords of the wrong JSON type;
//!   `required` naming a missing property; a choice listed twice; a minimum above its maximum.
//! - **Every constraining keyword is enforced, or the schema is refused**; the crate never
//!   enforces part of a schema. Per keyword:
//!
//!   | keyword | where | what happens |
//!   |---|---|---|
//!   | `type`, `properties`, `required`, `minLength`, `maxLength`, `format`, `minimum`, `maximum`, `enum`/`oneOf` on a string, `items` with `enum`/`anyOf`, `minItems`, `maxItems` | where MCP puts them | enforced |
//!   | `pattern`, `exclusiveMinimum`, `exclusiveMaximum`, `uniqueItems` | on a string, a number, an array | enforced, and linted: outside the MCP subset, but other SDKs send them; a `pattern` is checked with the `pattern` feature, and refuses its schema without it; every multi-select refuses the same choice twice, with `uniqueItems` or without |
//!   | `additionalProperties: false` at the root | | enforced (unknown keys refused), linted |
//!   | `enum`, `const`, `oneOf`, `anyOf`, `allOf`, `not`, `if`/`then`/`else`, `$ref`, `nullable` | on a boolean, a number, or anywhere but the MCP places | schema refused |
//!   | a string keyword on a select or on multi-select `items` (`pattern`, `maxLength`, `format`), `enum` on the array itself, `multipleOf`, `patternProperties` and the other object and array keywords MCP has no place for | | schema refused |
//!   | a keyword for another type of value than the property's (`minimum` on a string, `minLength` on a number) | | no effect in JSON Schema: linted |
//!   | annotations (`examples`, `deprecated`, `$comment`, a root `title`, ...) and unknown keywords | | no effect: linted |
//!   | `default` | | an annotation: kept and sent; one that breaks its own property's rules is linted and dropped, never sent nor filled in |
//!
//! - **A form with no properties is a confirmation**: accept with absent or empty content passes,
//!   and a key it does not name is ignored, as in any other form.
//! - **Duplicate keys** are refused on every path that reads text (`from_json`,
//!   `parse_reply_json`, the `Deserialize` impl). A `serde_json::Value` has already kept the last
//!   of them, so `from_value` and `parse_reply_value` cannot see them.
//! - **Coercion is for clients that collect text** (`"42"` for an integer, `"yes"` for a boolean,
//!   `"a, b"` for a multi-select, a choice's title for its value). It is never applied when a server
//!   reads a reply: there, `"42"` for an integer is a type error.
//! - **Written down for older versions**: `schema.for_version(ProtocolVersion::V2025_06_18)` (and
//!   `FormRequest::with_version`) turns titled choices into `enum` + `enumNames` and drops defaults
//!   other than booleans', or refuses a multi-select naming the field.
//! - **Limits of their own**: `from_json` and `from_value` take at most 1 MiB of text, 1,000
//!   properties, 10,000 choices per select and patterns of 1,000 bytes (256 KiB once compiled);
//!   `from_json_with(text, &limits)` and `from_value_with` lift or tighten them, for the schema
//!   and for its replies (`with_limits` sets the replies' alone).
//! - **Checked against an independent validator**: the repository's `tests/tests/oracle.rs` holds the runtime's
//!   verdict on 3,000 generated schema and content pairs to the `jsonschema` crate's (draft
//!   2020-12, formats asserted); its header lists the deliberate differences.

mod builder;
pub(crate) mod hints;
mod keywords;
pub(crate) mod lower;
mod names;
pub(crate) mod parse;
pub(crate) mod request;
pub(crate) mod rules;
pub(crate) mod sensitive;
pub(crate) mod wire;
pub(crate) mod words;

pub use crate::bound::Bound;
pub use crate::format::Format;
pub use builder::{
    BooleanField, Field, MultiSelectField, NumberField, SchemaBuilder, SelectField, StringField,
};

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Number, Value};

use crate::error::{ElicitError, SchemaError};
use crate::limits::Limits;
use crate::version::ProtocolVersion;
use names::Names;

/// One choice of a single- or multi-select: the value sent on the wire and its display title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The value the client sends back.
    pub value: String,
    /// The label a client shows; `None` shows the value itself.
    pub title: Option<String>,
}

/// How a single-select writes its choices on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectStyle {
    /// `enum: [..]`, no titles.
    Untitled,
    /// `oneOf: [{const, title}]` (2025-11-25 and later).
    Titled,
    /// `enum: [..]` with `enumNames: [..]` (2025-06-18, deprecated later).
    Legacy,
}

/// Rules of a `string` property.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct StringRules {
    /// `minLength`, in Unicode scalar values.
    pub min_length: Option<u64>,
    /// `maxLength`, in Unicode scalar values.
    pub max_length: Option<u64>,
    /// `format`.
    pub format: Option<Format>,
    /// `pattern`: outside the MCP subset (the derive never emits it, [`RequestedSchema::lint`]
    /// flags it), but enforced when a schema that arrives as JSON carries one.
    pub pattern: Option<Pattern>,
    /// `default`.
    pub default: Option<String>,
}

/// A compiled `pattern`: an unanchored regular expression search, as JSON Schema specifies.
///
/// The syntax is that of the `regex-lite` crate, which covers what form patterns use (classes,
/// anchors, repetition, alternation, groups); lookaround and backreferences are refused when the
/// schema is parsed. A search costs time in proportion to the text's length times the compiled
/// pattern's size, so the size is kept ([`size`](Pattern::size)) and a reply's searches are
/// bounded by [`Limits::max_pattern_work`](crate::Limits::max_pattern_work).
///
/// Checking a pattern takes the `pattern` feature, which brings in `regex-lite`: the MCP subset
/// has no `pattern`, so a server that asks derived forms never needs one. Without it, a schema
/// that carries a pattern is refused when it is parsed, never accepted unchecked.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: Arc<str>,
    regex: Compiled,
    size: usize,
}

/// A pattern compiled by regex-lite.
#[cfg(feature = "pattern")]
type Compiled = regex_lite::Regex;

/// Without the `pattern` feature no pattern compiles, so no [`Pattern`] exists.
#[cfg(not(feature = "pattern"))]
#[derive(Debug, Clone)]
enum Compiled {}

#[cfg(not(feature = "pattern"))]
impl Compiled {
    fn is_match(&self, _: &str) -> bool {
        match *self {}
    }
}

/// The largest compiled pattern, in bytes: regex-lite's own default cap.
#[cfg(feature = "pattern")]
const MAX_COMPILED: usize = 10 << 20;

impl Pattern {
    /// Compiles `source`, under the default [`Limits`].
    pub fn new(source: &str) -> Result<Pattern, String> {
        Pattern::with_limits(source, &Limits::DEFAULT)
    }

    /// Compiles `source`: at most [`max_pattern_bytes`](crate::Limits::max_pattern_bytes) of
    /// it, and at most 256 times that once compiled (counted repetition can make a short
    /// pattern compile large: `a{1000}{1000}`). Without the `pattern` feature, every pattern
    /// is an error that names the feature.
    pub fn with_limits(source: &str, limits: &Limits) -> Result<Pattern, String> {
        let (regex, size) = compile(source, limits)?;
        Ok(Pattern {
            source: source.into(),
            regex,
            size,
        })
    }

    /// The expression as written in the schema.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The expression, shared (each violation names it without copying it).
    pub(crate) fn shared(&self) -> Arc<str> {
        Arc::clone(&self.source)
    }

    /// About how many bytes the compiled pattern takes: a search costs about this much per
    /// byte of text.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether `text` contains a match.
    #[must_use]
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

/// Compiles `source`, within its limit in bytes and at most 256 times that once compiled, and
/// finds its compiled size.
#[cfg(feature = "pattern")]
fn compile(source: &str, limits: &Limits) -> Result<(Compiled, usize), String> {
    if source.len() > limits.max_pattern_bytes() {
        return Err(format!(
            "it is {} bytes long, over the limit of {}",
            source.len(),
            limits.max_pattern_bytes()
        ));
    }
    let cap = limits
        .max_pattern_bytes()
        .saturating_mul(256)
        .clamp(1 << 12, MAX_COMPILED);
    let compile = |limit: usize| {
        regex_lite::RegexBuilder::new(source)
            .size_limit(limit)
            .build()
    };
    let regex = compile(cap).map_err(|e| e.to_string())?;
    // The compiled size, to within a factor of two: the smallest doubling that compiles.
    // Each try stops once it passes its limit, so the search costs about two compiles.
    let mut size = (source.len() * 4).max(256);
    while size < cap && compile(size).is_err() {
        size *= 2;
    }
    Ok((regex, size.min(cap)))
}

/// Refuses every pattern, of any length: checking one takes the `pattern` feature.
#[cfg(not(feature = "pattern"))]
fn compile(_: &str, _: &Limits) -> Result<(Compiled, usize), String> {
    Err("checking a pattern takes elicit-core's `pattern` feature".into())
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

/// Rules of a `number` or `integer` property.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct NumberRules {
    /// `integer` rather than `number`.
    pub integer: bool,
    /// `minimum`, inclusive.
    pub minimum: Option<Bound>,
    /// `maximum`, inclusive.
    pub maximum: Option<Bound>,
    /// `exclusiveMinimum`: outside the MCP subset, enforced when a schema carries it.
    pub exclusive_minimum: Option<Bound>,
    /// `exclusiveMaximum`: outside the MCP subset, enforced when a schema carries it.
    pub exclusive_maximum: Option<Bound>,
    /// `default`.
    pub default: Option<Number>,
}

/// Rules of a single-select (`string` with choices).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SelectRules {
    /// The choices, in display order.
    pub choices: Vec<Choice>,
    /// How the choices are written on the wire.
    pub style: SelectStyle,
    /// `default`: one of the choice values.
    pub default: Option<String>,
}

/// Rules of a multi-select (`array` of choices).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MultiSelectRules {
    /// The choices, in display order.
    pub choices: Vec<Choice>,
    /// `items.anyOf: [{const, title}]` rather than `items.enum`.
    pub titled: bool,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`, read and written back. Outside the MCP subset, and changes nothing
    /// read: every multi-select refuses the same choice twice, as no checkbox list can send
    /// it.
    pub unique: bool,
    /// `default`: choice values.
    pub default: Option<Vec<String>>,
}

impl SelectRules {
    /// A single-select of `choices`, in display order, with no default. It is written with
    /// titles (`oneOf`) when any choice has one, else as a plain `enum`.
    pub(crate) fn new(choices: Vec<Choice>) -> SelectRules {
        let style = if choices.iter().any(|c| c.title.is_some()) {
            SelectStyle::Titled
        } else {
            SelectStyle::Untitled
        };
        SelectRules {
            choices,
            style,
            default: None,
        }
    }
}

impl MultiSelectRules {
    /// A multi-select of `choices`, in display order, with no bounds and no default. It is
    /// written with titles (`anyOf`) when any choice has one.
    pub(crate) fn new(choices: Vec<Choice>) -> MultiSelectRules {
        MultiSelectRules {
            titled: choices.iter().any(|c| c.title.is_some()),
            choices,
            min_items: None,
            max_items: None,
            unique: false,
            default: None,
        }
    }
}

/// What a property holds, with its rules.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Kind {
    /// `type: string`.
    String(StringRules),
    /// `type: number` or `type: integer`.
    Number(NumberRules),
    /// `type: boolean`, with its `default`.
    Boolean(Option<bool>),
    /// A single-select.
    Select(SelectRules),
    /// A multi-select.
    MultiSelect(MultiSelectRules),
}

impl Kind {
    /// The JSON type name of values of this kind.
    #[must_use]
    pub fn json_type(&self) -> &'static str {
        match self {
            Kind::String(_) | Kind::Select(_) => "string",
            Kind::Number(rules) if rules.integer => "integer",
            Kind::Number(_) => "number",
            Kind::Boolean(_) => "boolean",
            Kind::MultiSelect(_) => "array",
        }
    }

    /// The choices of a single- or multi-select.
    #[must_use]
    pub fn choices(&self) -> Option<&[Choice]> {
        match self {
            Kind::Select(r) => Some(&r.choices),
            Kind::MultiSelect(r) => Some(&r.choices),
            _ => None,
        }
    }

    /// The choices of a single- or multi-select, to change.
    #[cfg(feature = "ask")]
    pub(crate) fn choices_mut(&mut self) -> Option<&mut Vec<Choice>> {
        match self {
            Kind::Select(r) => Some(&mut r.choices),
            Kind::MultiSelect(r) => Some(&mut r.choices),
            _ => None,
        }
    }

    /// Whether the kind carries a `default`.
    #[must_use]
    pub fn has_default(&self) -> bool {
        match self {
            Kind::String(r) => r.default.is_some(),
            Kind::Number(r) => r.default.is_some(),
            Kind::Boolean(d) => d.is_some(),
            Kind::Select(r) => r.default.is_some(),
            Kind::MultiSelect(r) => r.default.is_some(),
        }
    }

    /// Drops the `default`.
    pub(crate) fn clear_default(&mut self) {
        match self {
            Kind::String(r) => r.default = None,
            Kind::Number(r) => r.default = None,
            Kind::Boolean(d) => *d = None,
            Kind::Select(r) => r.default = None,
            Kind::MultiSelect(r) => r.default = None,
        }
    }

    /// The `default` as a JSON value, if there is one.
    pub fn default_value(&self) -> Option<serde_json::Value> {
        use serde_json::Value;
        match self {
            Kind::String(r) => r.default.clone().map(Value::String),
            Kind::Number(r) => r.default.clone().map(Value::Number),
            Kind::Boolean(d) => d.map(Value::Bool),
            Kind::Select(r) => r.default.clone().map(Value::String),
            Kind::MultiSelect(r) => r
                .default
                .as_ref()
                .map(|d| Value::Array(d.iter().cloned().map(Value::String).collect())),
        }
    }
}

/// One property of a form.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Property {
    /// The name on the wire.
    pub name: String,
    /// `title`: the field's label.
    pub title: Option<String>,
    /// `description`: help text.
    pub description: Option<String>,
    /// Listed in the schema's `required`.
    pub required: bool,
    /// What the property holds.
    pub kind: Kind,
}

/// A requestedSchema: `{"type":"object","properties":{..},"required":[..]}`.
///
/// Serializing it with serde writes exactly the JSON that goes on the wire. Properties keep their
/// order, which is the order clients render the form in.
#[derive(Debug, Clone)]
pub struct RequestedSchema {
    pub(crate) properties: Vec<Property>,
    pub(crate) deny_unknown: bool,
    pub(crate) dialect: Option<String>,
    pub(crate) lints: Vec<Lint>,
    /// Each property's description is written with its bounds in words
    /// ([`with_bound_hints`](RequestedSchema::with_bound_hints)). The hint is made from the
    /// rules when the schema is written, never stored in the description.
    pub(crate) bound_hints: bool,
    /// The limits its replies are read under: those it was read or built under.
    pub(crate) limits: Limits,
    /// The properties' positions, sorted by name. Derived from `properties`: rebuilt by
    /// [`RequestedSchema::reindex`] whenever they change.
    index: Names,
    /// Per property: its choices' positions, sorted by value (empty for other kinds).
    choice_index: Vec<Names>,
    /// The properties a typed target reads as an `Option`, by name: set for a derived form.
    option_fields: Vec<Box<str>>,
    /// Per property: how `""` reads.
    blanks: Vec<Blank>,
    /// Whether some property's blank reads as [`Blank::Absent`], and whether as
    /// [`Blank::None`].
    ahead: (bool, bool),
    /// How many properties are required.
    required_count: usize,
}

/// Building, reading and writing a schema, and asking again; the work is in the files named
/// for each.
impl RequestedSchema {
    /// A [`SchemaBuilder`] with no properties.
    pub fn builder() -> SchemaBuilder {
        SchemaBuilder::default()
    }

    /// Parses a requestedSchema as a client receives it.
    ///
    /// Structure is checked strictly: the root must be `type: object` with a `properties` object,
    /// each property one of the primitive kinds MCP allows, every keyword of the right JSON type,
    /// `required` naming only listed properties, no choice listed twice, and no `min` above its
    /// `max`. Every keyword that constrains a value is enforced, or the schema is refused.
    /// `pattern`, `exclusiveMinimum`, `exclusiveMaximum` and `uniqueItems` are outside the subset
    /// but enforced. What changes nothing is tolerated and listed by [`lint`](Self::lint):
    /// annotations (a root `title`, `examples`), unknown keywords, keywords for another type of
    /// value than the property's (`minimum` on a string), and a `default` that breaks its own
    /// property's rules (it is dropped from the schema: never sent, and never filled in).
    ///
    /// The default [`Limits`] apply: at most 1,000 properties, 10,000 choices per select, and
    /// patterns of 1,000 bytes.
    pub fn from_value(value: Value) -> Result<RequestedSchema, SchemaError> {
        RequestedSchema::from_value_with(value, &Limits::DEFAULT)
    }

    /// [`from_value`](Self::from_value) under other limits.
    pub fn from_value_with(value: Value, limits: &Limits) -> Result<RequestedSchema, SchemaError> {
        parse::parse(value, limits, true)
    }

    /// Parses a requestedSchema from JSON text, keeping the properties in the order the text
    /// lists them, which is the order clients render the form in. ([`from_value`](Self::from_value)
    /// cannot know it: a `serde_json::Map` sorts its keys unless serde_json's `preserve_order`
    /// feature is on.)
    ///
    /// The default [`Limits`] apply: at most 1 MiB of text, 1,000 properties, 10,000 choices
    /// per select, and patterns of 1,000 bytes.
    pub fn from_json(json: &str) -> Result<RequestedSchema, SchemaError> {
        RequestedSchema::from_json_with(json, &Limits::DEFAULT)
    }

    /// [`from_json`](Self::from_json) under other limits.
    pub fn from_json_with(json: &str, limits: &Limits) -> Result<RequestedSchema, SchemaError> {
        parse::from_json_with(json, limits)
    }

    /// This schema written for `version`: for 2025-06-18, titled choices become `enum` with
    /// `enumNames`, only booleans keep a `default`, and a multi-select, which it cannot hold,
    /// becomes one optional boolean per choice named `FIELD__CHOICE`, titled "Field: Choice"
    /// (its default list ticks its boxes; read a reply back with
    /// [`unfold_reply`](RequestedSchema::unfold_reply)); newer versions take it as it is.
    /// Fails, naming the field, for what the version cannot express: a field named as one of
    /// those boxes.
    pub fn for_version(&self, version: ProtocolVersion) -> Result<RequestedSchema, SchemaError> {
        wire::downlevel(self, version)
    }

    /// A reply to this schema as [written](RequestedSchema::for_version) for `version`, read
    /// back into this schema's shape: on 2025-06-18 each multi-select went out as one boolean
    /// per choice (`FIELD__CHOICE`), and the ticked ones become the field's list again, in the
    /// order of the choices, so that the field's own rules (`minItems`, `maxItems`) apply and
    /// their violations name the field. A required multi-select with no box in the reply reads
    /// as the empty list. Any other reply, and any other version, is returned as it is.
    #[must_use]
    pub fn unfold_reply<'r>(&self, version: ProtocolVersion, reply: &'r Value) -> Cow<'r, Value> {
        wire::unfold_reply(self, version, reply)
    }

    /// Reads this schema's replies under `limits`. A schema read with
    /// [`from_json_with`](Self::from_json_with) or built with
    /// [`build_with`](SchemaBuilder::build_with) reads them under the limits it was read or built
    /// under; any other, under the default ones.
    ///
    /// ```
    /// use elicit_core::Limits;
    /// use elicit_core::schema::RequestedSchema;
    ///
    /// let schema = RequestedSchema::from_json(r#"{"type":"object","properties":{"note":{"type":"string"}}}"#)?;
    /// let long = format!(r#"{{"action":"accept","content":{{"note":"{}"}}}}"#, "x".repeat(2000));
    /// assert!(schema.parse_reply_json(&long).is_ok());
    /// let tight = schema.with_limits(Limits::default().with_max_string_bytes(1024));
    /// assert!(tight.parse_reply_json(&long).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits this schema's replies are read under.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// This schema written with each property's bounds appended to its description in words,
    /// for the person filling in the form: "Party size (1–12, a whole number)", "at most 50
    /// characters", "choose 1–3". Clients enforce `minimum` or `maxLength` without showing
    /// them; the description is the one text every client shows. Derived forms do this unless
    /// `#[elicit(no_bound_hints)]`.
    ///
    /// The hint is made from the rules each time the schema is written, and joined to the
    /// description only there: [`Property::description`] stays as it was given, and a rule that
    /// changes later changes the hint with it.
    ///
    /// ```
    /// use elicit_core::schema::RequestedSchema;
    /// use elicit_core::schema::Field;
    ///
    /// let schema = RequestedSchema::builder()
    ///     .field(Field::integer("party_size").range(1, 12).description("Guests"))
    ///     .build()?
    ///     .with_bound_hints();
    /// let sent = serde_json::to_value(&schema)?;
    /// assert_eq!(sent["properties"]["party_size"]["description"], "Guests (1–12, a whole number)");
    /// assert_eq!(schema.properties()[0].description.as_deref(), Some("Guests"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_bound_hints(mut self) -> Self {
        self.bound_hints = true;
        self
    }

    /// This schema with the values of an answer that was refused kept as defaults, so a form
    /// asked again starts with what was right: each property `content` holds that `error` does
    /// not name and whose value passes the property's own rules. The rest keep their own
    /// default, if any. Defaults reach clients on 2025-11-25 and later (2025-06-18 keeps only
    /// booleans').
    ///
    /// ```
    /// use elicit_core::schema::RequestedSchema;
    /// use elicit_core::schema::Field;
    ///
    /// let schema = RequestedSchema::builder()
    ///     .field(Field::string("name").min_length(1).required())
    ///     .field(Field::integer("party_size").range(1, 12).required())
    ///     .build()?;
    /// let reply = serde_json::json!({"action": "accept", "content": {"name": "Ada", "party_size": 40}});
    /// let error = schema.parse_reply_value(&reply).unwrap_err();
    /// let again = schema.prefilled(reply["content"].as_object().unwrap(), &error);
    /// assert_eq!(again.properties()[0].kind.default_value(), Some("Ada".into()));
    /// assert_eq!(again.properties()[1].kind.default_value(), None);
    /// # Ok::<(), elicit_core::SchemaError>(())
    /// ```
    #[must_use]
    pub fn prefilled(&self, content: &Map<String, Value>, error: &ElicitError) -> RequestedSchema {
        hints::prefilled(self, content, error)
    }
}

/// Two schemas are equal when they are written the same and read replies the same: a schema
/// with [bound hints](RequestedSchema::with_bound_hints) equals the one read back from its wire
/// form, whose descriptions hold the hints.
impl PartialEq for RequestedSchema {
    fn eq(&self, other: &Self) -> bool {
        let written = |p: &Property, hints: bool| Property {
            description: hints::described(p, hints).map(std::borrow::Cow::into_owned),
            ..p.clone()
        };
        self.properties.len() == other.properties.len()
            && self
                .properties
                .iter()
                .zip(&other.properties)
                .all(|(a, b)| written(a, self.bound_hints) == written(b, other.bound_hints))
            && self.deny_unknown == other.deny_unknown
            && self.dialect == other.dialect
            && self.lints == other.lints
    }
}

/// Something in a schema that is outside the strict MCP subset, found by
/// [`RequestedSchema::lint`]. The schema still works here; a strict client may refuse it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lint {
    /// The property, or `None` for the root. The lints of one property share its name.
    pub property: Option<Arc<str>>,
    /// What is outside the subset, in plain words.
    pub message: String,
}

impl std::fmt::Display for Lint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.property {
            Some(p) => write!(f, "property `{p}`: {}", self.message),
            None => write!(f, "root: {}", self.message),
        }
    }
}

/// How `""` for a property reads ([`rules::blank_is_absent`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blank {
    /// As the value `""`, held to the property's rules.
    Value,
    /// As if the property were not sent: the reader reads the value ahead of its key, and
    /// skips both when it is `""`.
    Absent,
    /// As if not sent, where a typed target reads the property as an `Option`: its `""` is
    /// handed on as `None`, so no value is read ahead of its key. A target that reads the
    /// property otherwise (the runtime's map, the report pass) reads it as `Absent`.
    None,
}

impl RequestedSchema {
    /// A schema of checked parts: the parser and the builder call this once they have checked
    /// them.
    pub(crate) fn build(
        properties: Vec<Property>,
        deny_unknown: bool,
        dialect: Option<String>,
        lints: Vec<Lint>,
    ) -> Self {
        let mut schema = RequestedSchema {
            properties,
            deny_unknown,
            dialect,
            lints,
            bound_hints: false,
            limits: Limits::DEFAULT,
            index: Names::default(),
            choice_index: Vec::new(),
            option_fields: Vec::new(),
            blanks: Vec::new(),
            ahead: (false, false),
            required_count: 0,
        };
        schema.reindex();
        schema
    }

    /// Rebuilds the indexes after `properties` changed.
    pub(crate) fn reindex(&mut self) {
        self.index = Names::new(self.properties.iter().map(|p| p.name.as_str()));
        self.choice_index = self
            .properties
            .iter()
            .map(|p| match p.kind.choices() {
                Some(choices) => Names::new(choices.iter().map(|c| c.value.as_str())),
                None => Names::default(),
            })
            .collect();
        let option = |name: &str| self.option_fields.iter().any(|n| **n == *name);
        self.blanks = (0..self.properties.len())
            .map(|i| match rules::blank_is_absent(self, i) {
                false => Blank::Value,
                true if option(&self.properties[i].name) => Blank::None,
                true => Blank::Absent,
            })
            .collect();
        self.ahead = (
            self.blanks.contains(&Blank::Absent),
            self.blanks.contains(&Blank::None),
        );
        self.required_count = self.properties.iter().filter(|p| p.required).count();
    }

    /// How many properties are required.
    pub(crate) fn required_count(&self) -> usize {
        self.required_count
    }

    /// How `""` for property `i` reads.
    pub(crate) fn blank(&self, i: usize) -> Blank {
        self.blanks.get(i).copied().unwrap_or(Blank::Value)
    }

    /// Whether a reader reads some property's value ahead of its key: one whose blank reads as
    /// absent, where the target reads it otherwise than as an `Option` (`options` says whether
    /// it reads [`Blank::None`] as one).
    pub(crate) fn reads_ahead(&self, options: bool) -> bool {
        let (absent, none) = self.ahead;
        absent || (none && !options)
    }

    /// Records the properties a typed target reads as an `Option`.
    pub(crate) fn set_option_fields<'a>(&mut self, names: impl Iterator<Item = &'a str>) {
        self.option_fields = names.map(Box::from).collect();
        self.reindex();
    }

    /// Puts the properties in the order of `names`; those it does not name go after, in the
    /// order they had.
    pub(crate) fn order_by<'a>(&mut self, names: impl Iterator<Item = &'a str>) {
        let rank: std::collections::HashMap<&str, usize> =
            names.enumerate().map(|(i, name)| (name, i)).collect();
        let rank = |p: &Property| rank.get(p.name.as_str()).copied().unwrap_or(usize::MAX);
        crate::sort::stable(&mut self.properties, &|a, b| rank(a).cmp(&rank(b)));
        self.reindex();
    }

    /// Which choice of property `i` `value` is.
    pub(crate) fn choice_position(&self, i: usize, value: &str) -> Option<usize> {
        self.choice_index.get(i)?.find(value)
    }

    /// The position of the property named `key`.
    pub(crate) fn position(&self, key: &str) -> Option<usize> {
        self.index.find(key)
    }

    /// Everything in the schema outside the strict MCP subset: keywords clients may refuse
    /// (`pattern`, `exclusiveMinimum`, a root `title`, unknown keywords) and forms they mishandle
    /// (no properties). Empty for every schema the derive produces. Use it to check a server's
    /// own schemas before sending them.
    #[must_use]
    pub fn lint(&self) -> &[Lint] {
        &self.lints
    }

    /// The schema of no properties, for replies whose content is never read.
    pub(crate) fn empty() -> &'static RequestedSchema {
        static EMPTY: std::sync::OnceLock<RequestedSchema> = std::sync::OnceLock::new();
        EMPTY.get_or_init(|| RequestedSchema::build(Vec::new(), false, None, Vec::new()))
    }

    /// The properties, in wire order.
    #[must_use]
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }

    /// The property named `name` on the wire.
    #[must_use]
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.position(name).map(|i| &self.properties[i])
    }

    /// The names listed in `required`, in property order.
    pub fn required(&self) -> impl Iterator<Item = &str> {
        self.properties
            .iter()
            .filter(|p| p.required)
            .map(|p| p.name.as_str())
    }

    /// Whether accepted content may hold properties the schema does not list. A derived type
    /// with `#[serde(deny_unknown_fields)]` refuses them; this is enforced on parse, never sent.
    #[must_use]
    pub fn denies_unknown(&self) -> bool {
        self.deny_unknown
    }

    /// Sets whether unknown properties are refused on parse.
    pub fn set_deny_unknown(&mut self, deny: bool) {
        self.deny_unknown = deny;
    }

    /// The `$schema` dialect URI sent with the schema, if any.
    #[must_use]
    pub fn dialect(&self) -> Option<&str> {
        self.dialect.as_deref()
    }

    /// Sets the `$schema` dialect URI (`None` leaves it out).
    pub fn set_dialect(&mut self, dialect: Option<String>) {
        self.dialect = dialect;
    }
}
