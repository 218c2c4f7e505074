//! The requestedSchema model: a flat object of primitive properties, exactly the MCP subset.
//!
//! A [`RequestedSchema`] comes from two places: `T::requested_schema()` for a derived type, and
//! [`RequestedSchema::from_value`] for a schema that arrives as JSON. Both are the same type, so
//! the same validation rules serve both.

mod bound;
mod builder;
mod choices;
pub(crate) mod index;
mod keywords;
mod lower;
mod parse;
mod readable;
mod sensitive;
mod wire;

pub use bound::Bound;
pub(crate) use bound::{IntWindow, Num};
pub use builder::{
    BooleanField, Field, MultiSelectField, NumberField, SchemaBuilder, SelectField, StringField,
};
pub(crate) use lower::lower;
pub(crate) use lower::{FieldOrder, MAX_SAFE_INTEGER};
pub(crate) use parse::is_integral;
pub(crate) use parse::json_type as json_type_name;
pub(crate) use readable::{hint_bounds, title_untitled, without_hint};

use std::any::TypeId;
use std::sync::Arc;

use serde_json::Number;

use crate::error::SchemaError;
use crate::version::ProtocolVersion;

/// A string `format` that MCP elicitation allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `email`: an email address.
    Email,
    /// `uri`: an absolute URI (RFC 3986).
    Uri,
    /// `date`: an RFC 3339 full-date, `2026-11-30`.
    Date,
    /// `date-time`: an RFC 3339 date-time with an offset, `2026-11-30T12:00:00Z`.
    DateTime,
}

impl Format {
    /// The keyword value on the wire.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Date => "date",
            Format::DateTime => "date-time",
        }
    }

    /// Whether `value` is a valid string of this format, by the rules replies are checked with
    /// (see the README's "Formats" section).
    ///
    /// ```
    /// use elicit_core::schema::Format;
    /// assert!(Format::Date.is_valid("2026-11-30"));
    /// assert!(!Format::Date.is_valid("2026-02-30"));
    /// ```
    #[must_use]
    pub fn is_valid(self, value: &str) -> bool {
        crate::validate::format::is_valid(self, value)
    }

    /// Parses a wire keyword value.
    #[must_use]
    pub fn from_wire(s: &str) -> Option<Format> {
        Some(match s {
            "email" => Format::Email,
            "uri" => Format::Uri,
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            _ => return None,
        })
    }

    /// Words for error messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Format::Email => "email address",
            Format::Uri => "absolute URI",
            Format::Date => "RFC 3339 date (YYYY-MM-DD)",
            Format::DateTime => "RFC 3339 date-time with offset",
        }
    }
}

/// One choice of a single- or multi-select: the value sent on the wire and its display title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The value the client sends back.
    pub value: String,
    /// The label a client shows; `None` shows the value itself.
    pub title: Option<String>,
}

/// Up to this many choices, a value is found by scanning them; past it, through an index.
const SCAN_CHOICES: usize = 8;

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
#[derive(Debug, Clone)]
pub struct Pattern {
    source: Arc<str>,
    regex: regex_lite::Regex,
    size: usize,
}

/// The largest compiled pattern, in bytes: regex-lite's own default cap.
const MAX_COMPILED: usize = 10 << 20;

impl Pattern {
    /// Compiles `source`, under the default [`Limits`](crate::Limits).
    pub fn new(source: &str) -> Result<Pattern, String> {
        Pattern::with_limits(source, &crate::Limits::DEFAULT)
    }

    /// Compiles `source`: at most [`max_pattern_bytes`](crate::Limits::max_pattern_bytes) of
    /// it, and at most 256 times that once compiled (counted repetition can make a short
    /// pattern compile large: `a{1000}{1000}`).
    pub fn with_limits(source: &str, limits: &crate::Limits) -> Result<Pattern, String> {
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
        Ok(Pattern {
            source: source.into(),
            regex,
            size: size.min(cap),
        })
    }

    /// The expression as written in the schema.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The expression, shared (each violation names it without copying it).
    pub(crate) fn shared(&self) -> Arc<str> {
        Arc::clone(&self.source)
    }

    /// About how many bytes the compiled pattern takes: a search costs about this much per
    /// byte of text.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether `text` contains a match.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
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
    /// Refuse the same choice twice. Not sent (MCP has no `uniqueItems`); set for Rust sets.
    pub unique: bool,
    /// `default`: choice values.
    pub default: Option<Vec<String>>,
}

impl SelectRules {
    /// A single-select of `choices`, in display order, with no default. It is written with
    /// titles (`oneOf`) when any choice has one, else as a plain `enum`.
    #[must_use]
    pub fn new(choices: Vec<Choice>) -> SelectRules {
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
    #[must_use]
    pub fn new(choices: Vec<Choice>) -> MultiSelectRules {
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
    pub fn choices(&self) -> Option<&[Choice]> {
        match self {
            Kind::Select(r) => Some(&r.choices),
            Kind::MultiSelect(r) => Some(&r.choices),
            _ => None,
        }
    }

    /// Whether the kind carries a `default`.
    pub fn has_default(&self) -> bool {
        match self {
            Kind::String(r) => r.default.is_some(),
            Kind::Number(r) => r.default.is_some(),
            Kind::Boolean(d) => d.is_some(),
            Kind::Select(r) => r.default.is_some(),
            Kind::MultiSelect(r) => r.default.is_some(),
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

impl Property {
    /// An optional property named `name` on the wire, with no title or description.
    #[must_use]
    pub fn new(name: impl Into<String>, kind: Kind) -> Property {
        Property {
            name: name.into(),
            title: None,
            description: None,
            required: false,
            kind,
        }
    }

    /// Sets the `title`, the field's label.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Property {
        self.title = Some(title.into());
        self
    }

    /// Sets the `description`, its help text.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Property {
        self.description = Some(description.into());
        self
    }

    /// Lists the property in the schema's `required`, or not.
    #[must_use]
    pub fn with_required(mut self, required: bool) -> Property {
        self.required = required;
        self
    }
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
    /// Derived from `properties`: rebuilt by [`RequestedSchema::reindex`] whenever they change.
    index: index::KeyIndex,
    /// Slot 0: the property whose name sorts first; slot `i + 1`: the one whose name sorts right
    /// after property `i`'s. The order of a reply written from a sorted map (serde_json's default
    /// `Map`, so rmcp's and many clients'), so a reader guesses it second.
    sorted_next: Box<[u32]>,
    /// Bit `i` set for each required property `i`, when there are at most 64 properties.
    required_mask: Option<u64>,
    /// The properties whose `default` passes its own rules, so it may be filled in, ascending.
    defaults: Box<[u32]>,
    /// Per property: an index of its choices, when it has more than a few (else empty).
    choice_index: Vec<index::KeyIndex>,
    /// Per property: the integers a number property's bounds allow (all, for other kinds).
    int_windows: Box<[IntWindow]>,
    /// The property names, shared with every [`Content`](crate::Content) read against it.
    names: Arc<[String]>,
    /// The type this schema was derived from, where its serde derive reads a field's index in
    /// place of its name; kept through every change to the properties.
    fields: Option<Box<SerdeFields>>,
    /// Derived from `fields`: whether the property names are its field names, in its order. A
    /// reader of that type then hands it each known key as the property's index.
    index_keys: bool,
}

/// A type whose serde derive reads field `i` from the key `i` as well as from its name, and
/// its field names in that order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SerdeFields {
    pub(crate) ty: TypeId,
    pub(crate) names: &'static [&'static str],
}

impl PartialEq for RequestedSchema {
    fn eq(&self, other: &Self) -> bool {
        self.properties == other.properties
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

impl RequestedSchema {
    /// A schema with these properties, in this order.
    #[must_use]
    pub fn new(properties: Vec<Property>) -> Self {
        RequestedSchema::build(properties, false, None, Vec::new())
    }

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
            index: index::KeyIndex::default(),
            sorted_next: Box::new([]),
            required_mask: None,
            defaults: Box::new([]),
            choice_index: Vec::new(),
            int_windows: Box::new([]),
            names: Arc::new([]),
            fields: None,
            index_keys: false,
        };
        schema.reindex();
        schema
    }

    /// Rebuilds the name index after `properties` changed.
    pub(crate) fn reindex(&mut self) {
        self.index = index::KeyIndex::new(self.properties.iter().map(|p| p.name.as_str()));
        self.sorted_next = sorted_successors(&self.properties);
        self.names = self.properties.iter().map(|p| p.name.clone()).collect();
        self.required_mask = (self.properties.len() <= 64).then(|| {
            self.properties
                .iter()
                .enumerate()
                .filter(|(_, p)| p.required)
                .fold(0, |mask, (i, _)| mask | 1 << i)
        });
        self.int_windows = self
            .properties
            .iter()
            .map(|p| match &p.kind {
                Kind::Number(r) => IntWindow::new(
                    r.minimum,
                    r.maximum,
                    r.exclusive_minimum,
                    r.exclusive_maximum,
                ),
                _ => IntWindow::ALL,
            })
            .collect();
        self.choice_index = self
            .properties
            .iter()
            .map(|p| match p.kind.choices() {
                Some(choices) if choices.len() > SCAN_CHOICES => {
                    index::KeyIndex::new(choices.iter().map(|c| c.value.as_str()))
                }
                _ => index::KeyIndex::default(),
            })
            .collect();
        let defaults = (0..self.properties.len())
            .filter(|&i| self.properties[i].kind.has_default() && self.default_breaks(i).is_none())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        self.defaults = defaults;
        self.index_keys = self
            .fields
            .as_ref()
            .is_some_and(|f| self.names_are(f.names));
    }

    fn names_are(&self, names: &[&str]) -> bool {
        names.len() == self.properties.len()
            && names
                .iter()
                .zip(&self.properties)
                .all(|(n, p)| *n == p.name)
    }

    /// Records that `fields.ty`'s serde derive reads its fields by index (see
    /// [`index_keys_for`](Self::index_keys_for)). Only an optimized build probes for it.
    #[cfg_attr(debug_assertions, allow(dead_code))]
    pub(crate) fn set_serde_fields(&mut self, fields: SerdeFields) {
        self.index_keys = self.names_are(fields.names);
        self.fields = Some(Box::new(fields));
    }

    /// Whether a reader of type `ty` takes each key that names a property as the property's
    /// index: `ty` is the type this schema was derived from, its serde derive reads field `i`
    /// from the key `i`, and property `i` is its field `i`. serde's derive then compares no
    /// names: the key was matched once, here. Never in a debug build, which does not probe.
    #[inline]
    pub(crate) fn index_keys_for(&self, ty: TypeId) -> bool {
        self.index_keys && self.fields.as_ref().is_some_and(|f| f.ty == ty)
    }

    /// Which of `prop`'s choices `value` is: a scan of a short list, a lookup in a long one.
    /// `prop` must be one of this schema's properties.
    #[inline]
    pub(crate) fn choice_position(&self, prop: &Property, value: &str) -> Option<usize> {
        let choices = prop.kind.choices()?;
        if choices.len() <= SCAN_CHOICES {
            return choices
                .iter()
                .position(|c| index::same_bytes(c.value.as_bytes(), value.as_bytes()));
        }
        let index = self.choice_index.get(self.index_of(prop)?)?;
        index.find(value, |i| choices[i].value.as_str())
    }

    /// The integers number property `prop` allows; every integer when `prop` is not one of
    /// this schema's properties.
    #[inline]
    pub(crate) fn int_window(&self, prop: &Property) -> IntWindow {
        self.index_of(prop)
            .and_then(|i| self.int_windows.get(i).copied())
            .unwrap_or(IntWindow::ALL)
    }

    /// The position of `prop` among the properties, from where it sits in memory: the
    /// checks hold a reference to a property, not its position.
    #[inline]
    fn index_of(&self, prop: &Property) -> Option<usize> {
        let base = self.properties.as_ptr() as usize;
        let offset = (prop as *const Property as usize).checked_sub(base)?;
        let i = offset / std::mem::size_of::<Property>();
        self.properties
            .get(i)
            .filter(|p| std::ptr::eq(*p, prop))
            .map(|_| i)
    }

    /// What property `i`'s `default` breaks of its own rules, if it has one that breaks any.
    pub(crate) fn default_breaks(&self, i: usize) -> Option<crate::error::Violation> {
        let default = self.properties.get(i)?.kind.default_value()?;
        crate::validate::check_one(self, i, &default)
            .into_iter()
            .next()
    }

    /// Property `i`'s `default`, when it has one that passes its own rules: the value a client
    /// fills in, and a server fills into accepted content.
    pub(crate) fn usable_default(&self, i: usize) -> Option<serde_json::Value> {
        let i32 = u32::try_from(i).ok()?;
        self.defaults.binary_search(&i32).ok()?;
        self.properties.get(i)?.kind.default_value()
    }

    /// The properties with a usable default (see [`usable_default`](Self::usable_default)),
    /// ascending.
    pub(crate) fn defaults(&self) -> &[u32] {
        &self.defaults
    }

    /// The property names, in form order, shared.
    pub(crate) fn names(&self) -> Arc<[String]> {
        Arc::clone(&self.names)
    }

    /// The mask of required properties, when there are at most 64 properties.
    #[inline]
    pub(crate) fn required_mask(&self) -> Option<u64> {
        self.required_mask
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
        EMPTY.get_or_init(|| RequestedSchema::new(Vec::new()))
    }

    /// The properties, in wire order.
    #[must_use]
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }

    /// The property named `name` on the wire.
    #[must_use]
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
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

    /// This schema written for `version`: for 2025-06-18, titled choices become `enum` with
    /// `enumNames`, and only booleans keep a `default`; newer versions take it as it is. Fails,
    /// naming the field, for what the version cannot express (a multi-select on 2025-06-18).
    pub fn for_version(&self, version: ProtocolVersion) -> Result<RequestedSchema, SchemaError> {
        crate::version::downlevel(self, version)
    }

    /// Whether the schema needs no rewriting for `version`.
    pub(crate) fn is_written_for(&self, version: ProtocolVersion) -> bool {
        version >= ProtocolVersion::V2025_11_25
            || (self.dialect.is_none()
                && self.properties.iter().all(|p| match &p.kind {
                    Kind::MultiSelect(_) => false,
                    Kind::Select(r) => r.style != SelectStyle::Titled && r.default.is_none(),
                    Kind::String(r) => r.default.is_none(),
                    Kind::Number(r) => r.default.is_none(),
                    Kind::Boolean(_) => true,
                }))
    }

    /// This schema with each property's bounds appended to its description in words, for the
    /// person filling in the form: "Party size (1–12, a whole number)", "at most 50 characters",
    /// "choose 1–3". Clients enforce `minimum` or `maxLength` without showing them; the
    /// description is the one text every client shows. Derived forms do this unless
    /// `#[elicit(no_bound_hints)]`.
    #[must_use]
    pub fn with_bound_hints(mut self) -> Self {
        readable::hint_bounds(&mut self);
        self
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

    /// The index of the property named `key`, anywhere in the form.
    pub(crate) fn position(&self, key: &str) -> Option<usize> {
        self.index.find(key, |i| self.properties[i].name.as_str())
    }

    /// The property declared after `previous` (the first, after none), if `key` names it: one
    /// comparison. Clients that keep the form's order are matched here; the rest go to
    /// [`find_after`](Self::find_after).
    #[inline(always)]
    pub(crate) fn guess_after(&self, key: &str, previous: Option<usize>) -> Option<usize> {
        let guess = previous.map_or(0, |p| p + 1);
        let p = self.properties.get(guess)?;
        index::same_bytes(p.name.as_bytes(), key.as_bytes()).then_some(guess)
    }

    /// The property `key` names, past the first guess: the property whose name sorts right
    /// after `previous`'s (the order of a reply written from a sorted map: every key of such a
    /// reply comes here), the one declared two after `previous` (the form's order with an
    /// absent optional property left out), then the index. The guesses come from the schema
    /// alone, so a schema holds nothing learned from replies.
    #[inline(never)]
    pub(crate) fn find_after(&self, key: &str, previous: Option<usize>) -> Option<usize> {
        self.guess_past(key, previous)
            .or_else(|| self.position(key))
    }

    /// The two guesses of [`find_after`](Self::find_after) before the index: `None` when
    /// neither is the property `key` names.
    #[inline(always)]
    fn guess_past(&self, key: &str, previous: Option<usize>) -> Option<usize> {
        let slot = previous.map_or(0, |p| p + 1);
        let sorted = self.sorted_next.get(slot).map(|&i| i as usize);
        for guess in [sorted, Some(slot + 1)] {
            if let Some(p) = guess.and_then(|i| self.properties.get(i))
                && index::same_bytes(p.name.as_bytes(), key.as_bytes())
            {
                return guess;
            }
        }
        None
    }
}

/// For [`RequestedSchema::sorted_next`]: the successor of each property (and of the start) in the
/// byte order of their names.
fn sorted_successors(properties: &[Property]) -> Box<[u32]> {
    let mut order: Vec<usize> = (0..properties.len()).collect();
    order.sort_by(|&a, &b| properties[a].name.cmp(&properties[b].name));
    let mut next = vec![u32::MAX; properties.len() + 1];
    let mut slot = 0;
    for &i in &order {
        next[slot] = u32::try_from(i).unwrap_or(u32::MAX);
        slot = i + 1;
    }
    next.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::{Kind, Pattern, Property, RequestedSchema};
    use crate::Limits;

    fn compiles(source: &str, limit: usize) -> bool {
        regex_lite::RegexBuilder::new(source)
            .size_limit(limit)
            .build()
            .is_ok()
    }

    #[test]
    fn a_patterns_size_is_the_smallest_doubling_that_compiles() {
        let long = "x".repeat(300);
        for source in [
            "a",
            "^[a-z]+$",
            "(ab|cd|ef)*g{40}",
            "[a-z]{1,60}@[a-z]{1,60}",
            &long,
        ] {
            let p = Pattern::new(source).unwrap();
            let start = (source.len() * 4).max(256);
            let size = p.size();
            assert!(compiles(source, size), "{source}: {size} does not compile");
            assert!(size >= start, "{source}: {size} below {start}");
            // A doubling of the start, and the first that compiles.
            assert!(
                (size / start).is_power_of_two() && size.is_multiple_of(start),
                "{source}: {size}"
            );
            assert!(
                size == start || !compiles(source, size / 2),
                "{source}: {size}"
            );
        }
        // A pattern that needs more than the start is measured, not assumed.
        let p = Pattern::new("[a-z]{1,60}@[a-z]{1,60}").unwrap();
        assert!(p.size() > 256, "{}", p.size());
    }

    #[test]
    fn the_compile_cap_follows_the_limit_with_a_floor() {
        // 256 compiled bytes per source byte, never below 4 KiB: a 10-byte limit still compiles
        // what fits in 4 KiB, and refuses what does not.
        let tight = Limits::DEFAULT.with_max_pattern_bytes(10);
        let fits = "a{99}";
        assert!(
            compiles(fits, 4096) && !compiles(fits, 2560),
            "pick another pattern"
        );
        let p = Pattern::with_limits(fits, &tight).unwrap();
        assert!(p.size() <= 4096, "{}", p.size());
        let too_big = "a{1,99}";
        assert!(
            compiles(too_big, 8192) && !compiles(too_big, 4096),
            "pick another pattern"
        );
        assert!(Pattern::with_limits(too_big, &tight).is_err());
        // Past the cap, a pattern is refused at its size.
        assert!(Pattern::with_limits(&"x".repeat(11), &tight).is_err());
    }

    fn schema(names: &[&str]) -> RequestedSchema {
        RequestedSchema::new(
            names
                .iter()
                .map(|n| Property::new(*n, Kind::Boolean(None)))
                .collect(),
        )
    }

    #[test]
    fn the_second_guess_follows_the_names_in_byte_order() {
        let s = schema(&["name", "email", "age", "Zone"]);
        // Sorted: Zone (3), age (2), email (1), name (0). Slot 0 is the start, slot i + 1
        // follows property i: name is last, email is followed by name, age by email, Zone by age.
        assert_eq!(&*s.sorted_next, &[3, u32::MAX, 0, 1, 2]);
        // A reply written in sorted order misses the first guess and meets the second at every
        // key, before the index.
        let mut previous = None;
        for (key, want) in [("Zone", 3), ("age", 2), ("email", 1), ("name", 0)] {
            assert_eq!(s.guess_after(key, previous), None, "{key}");
            assert_eq!(s.guess_past(key, previous), Some(want), "{key}");
            assert_eq!(s.find_after(key, previous), Some(want), "{key}");
            previous = Some(want);
        }
        // The form's order with one property left out: email after the start, age after name,
        // each met by the third guess.
        assert_eq!(s.guess_past("email", None), Some(1));
        assert_eq!(s.guess_past("age", Some(0)), Some(2));
        assert_eq!(s.find_after("email", None), Some(1));
        assert_eq!(s.find_after("age", Some(0)), Some(2));
        // No guess names it: the index finds it, and an unknown key is none.
        assert_eq!(s.guess_past("age", None), None);
        assert_eq!(s.find_after("age", None), Some(2));
        assert_eq!(s.guess_past("name", Some(2)), None);
        assert_eq!(s.find_after("name", Some(2)), Some(0));
        assert_eq!(s.find_after("other", Some(0)), None);
    }

    #[test]
    fn an_empty_form_has_only_the_start_slot() {
        assert_eq!(&*schema(&[]).sorted_next, &[u32::MAX]);
    }
}
