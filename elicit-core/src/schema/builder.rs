//! Building a [`RequestedSchema`] in code: [`SchemaBuilder`] and a field builder per property
//! kind. Each field is written as the JSON the parser reads and read back by it, so `build()`
//! refuses exactly what [`RequestedSchema::from_value`] refuses, with the same messages.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::{Choice, Property, RequestedSchema};
use crate::error::SchemaError;
use crate::format::Format;
use crate::limits::Limits;

/// Builds a [`RequestedSchema`] one property at a time, in the order the form shows them.
///
/// ```
/// use elicit_core::schema::{Field, Format, RequestedSchema};
///
/// let schema = RequestedSchema::builder()
///     .field(Field::select("repo", ["api", "web", "docs"]).title("Repository").required())
///     .field(Field::string("branch").title("Branch").min_length(1).required())
///     .field(Field::string("email").format(Format::Email))
///     .field(Field::integer("reviewers").range(1, 5).default(2))
///     .field(Field::boolean("draft").title("Open as a draft").default(false))
///     .build()?;
/// assert_eq!(schema.properties().len(), 5);
/// assert_eq!(schema.required().collect::<Vec<_>>(), ["repo", "branch"]);
/// # Ok::<(), elicit_core::SchemaError>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct SchemaBuilder {
    fields: Vec<Field>,
    deny_unknown: bool,
    dialect: Option<String>,
}

impl SchemaBuilder {
    /// Adds a property after those added so far.
    pub fn field(mut self, field: impl Into<Field>) -> Self {
        self.fields.push(field.into());
        self
    }

    /// Refuses content keys the form does not name (`additionalProperties: false`); by default
    /// they are ignored.
    pub fn deny_unknown(mut self, deny: bool) -> Self {
        self.deny_unknown = deny;
        self
    }

    /// Sends a `$schema` dialect URI with the schema (2025-11-25 and later).
    pub fn dialect(mut self, uri: impl Into<String>) -> Self {
        self.dialect = Some(uri.into());
        self
    }

    /// The schema, or what the parser refuses in it, naming the property: a repeated name, a
    /// bound above its other bound, no choices, a repeated choice, more
    /// than the default [`Limits`] allow. What the parser only lints (a default that breaks its
    /// own rules, which is then dropped: never sent nor filled in) it lints here: see
    /// [`RequestedSchema::lint`].
    pub fn build(self) -> Result<RequestedSchema, SchemaError> {
        self.build_with(&Limits::DEFAULT)
    }

    /// [`build`](Self::build) under other [`Limits`], which the schema's replies are then read
    /// under too.
    pub fn build_with(self, limits: &Limits) -> Result<RequestedSchema, SchemaError> {
        if self.fields.len() > limits.max_properties() {
            return Err(SchemaError::root(format!(
                "it has {} properties, over the limit of {}",
                self.fields.len(),
                limits.max_properties()
            )));
        }
        let mut properties: Vec<Property> = Vec::with_capacity(self.fields.len());
        let mut names = HashSet::with_capacity(self.fields.len());
        let mut lints = Vec::new();
        for field in self.fields {
            if !names.insert(field.name.clone()) {
                return Err(SchemaError::property(
                    &field.name,
                    "is defined twice; property names must be unique",
                ));
            }
            // One property at a time, so the form keeps the order it was built in whatever
            // order a JSON map would hold the names in.
            let one = json!({
                "type": "object",
                "properties": { field.name.as_str(): Value::Object(field.json) },
            });
            let mut parsed = RequestedSchema::from_value_with(one, limits)?;
            let Some(mut property) = parsed.properties.pop() else {
                return Err(SchemaError::property(&field.name, "was not read back"));
            };
            property.required = field.required;
            lints.append(&mut parsed.lints);
            properties.push(property);
        }
        let schema = RequestedSchema::build(properties, self.deny_unknown, self.dialect, lints);
        Ok(schema.with_limits(*limits))
    }
}

/// One property for a [`SchemaBuilder`], made by [`Field::string`], [`Field::integer`],
/// [`Field::number`], [`Field::boolean`], [`Field::select`], [`Field::titled_select`] or
/// [`Field::multi_select`], each returning a builder with the rules its kind takes.
#[derive(Debug, Clone)]
pub struct Field {
    name: String,
    required: bool,
    json: Map<String, Value>,
}

impl Field {
    /// A field of JSON type `kind`, with `rest` (key, value) after it.
    fn of<const N: usize>(name: impl Into<String>, kind: &str, rest: [(&str, Value); N]) -> Field {
        let mut json = Map::new();
        json.insert("type".into(), kind.into());
        for (key, value) in rest {
            json.insert(key.into(), value);
        }
        Field {
            name: name.into(),
            required: false,
            json,
        }
    }

    fn set(&mut self, key: &str, value: impl Into<Value>) {
        self.json.insert(key.to_owned(), value.into());
    }

    /// A string property.
    pub fn string(name: impl Into<String>) -> StringField {
        StringField(Field::of(name, "string", []))
    }

    /// A property that takes whole numbers (`type: integer`).
    pub fn integer(name: impl Into<String>) -> NumberField {
        NumberField(Field::of(name, "integer", []))
    }

    /// A property that takes any number (`type: number`).
    pub fn number(name: impl Into<String>) -> NumberField {
        NumberField(Field::of(name, "number", []))
    }

    /// A yes/no property (`type: boolean`).
    pub fn boolean(name: impl Into<String>) -> BooleanField {
        BooleanField(Field::of(name, "boolean", []))
    }

    /// A single-select of `choices`, in display order, written as a plain `enum`.
    pub fn select<I>(name: impl Into<String>, choices: I) -> SelectField
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        let values: Vec<Value> = choices
            .into_iter()
            .map(|c| Value::String(c.into()))
            .collect();
        SelectField(Field::of(name, "string", [("enum", values.into())]))
    }

    /// A single-select whose choices each show a title (`oneOf` of `const` and `title`);
    /// a choice without one shows its value. On 2025-06-18 it is written as `enum` with
    /// `enumNames`.
    pub fn titled_select<I>(name: impl Into<String>, choices: I) -> SelectField
    where
        I: IntoIterator,
        I::Item: Into<Choice>,
    {
        SelectField(Field::of(
            name,
            "string",
            [("oneOf", titled(choices).into())],
        ))
    }

    /// A multi-select of `choices` (an array of strings, each one of them). Choices with a
    /// title are written with `anyOf`, as 2025-11-25 defines. Not on 2025-06-18.
    pub fn multi_select<I>(name: impl Into<String>, choices: I) -> MultiSelectField
    where
        I: IntoIterator,
        I::Item: Into<Choice>,
    {
        let choices: Vec<Choice> = choices.into_iter().map(Into::into).collect();
        let items = if choices.iter().any(|c| c.title.is_some()) {
            json!({"anyOf": titled(choices)})
        } else {
            let values: Vec<Value> = choices
                .into_iter()
                .map(|c| Value::String(c.value))
                .collect();
            json!({"type": "string", "enum": values})
        };
        MultiSelectField(Field::of(name, "array", [("items", items)]))
    }
}

/// A property read from another schema, as a field: a proxy that keeps, drops or changes some
/// of a form's properties builds the new form from them, checked as every field is.
///
/// ```
/// use elicit_core::schema::RequestedSchema;
/// use elicit_core::schema::Kind;
///
/// let read = RequestedSchema::from_json(
///     r#"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}"#,
/// )?;
/// let mut builder = RequestedSchema::builder();
/// for property in read.properties().iter().filter(|p| p.name != "age") {
///     let mut property = property.clone();
///     property.required = true;
///     if let Kind::String(rules) = &mut property.kind {
///         rules.max_length = Some(40);
///     }
///     builder = builder.field(property);
/// }
/// let schema = builder.build()?;
/// assert_eq!(schema.required().collect::<Vec<_>>(), ["name"]);
/// assert_eq!(serde_json::to_value(&schema)?["properties"]["name"]["maxLength"], 40);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl From<Property> for Field {
    fn from(property: Property) -> Field {
        let one = RequestedSchema::build(vec![property], false, None, Vec::new());
        let property = &one.properties[0];
        // Written as the wire has it; a property that could not be written has no `type`, which
        // `build()` refuses, naming it.
        let json = match serde_json::to_value(&one) {
            Ok(Value::Object(mut root)) => match root.remove("properties") {
                Some(Value::Object(mut props)) => props.remove(&property.name),
                _ => None,
            },
            _ => None,
        };
        Field {
            name: property.name.clone(),
            required: property.required,
            json: match json {
                Some(Value::Object(json)) => json,
                _ => Map::new(),
            },
        }
    }
}

/// `oneOf`/`anyOf` branches: `{"const": value, "title": title}`.
fn titled<I>(choices: I) -> Vec<Value>
where
    I: IntoIterator,
    I::Item: Into<Choice>,
{
    choices
        .into_iter()
        .map(|c| {
            let c = c.into();
            let title = c.title.unwrap_or_else(|| c.value.clone());
            json!({"const": c.value, "title": title})
        })
        .collect()
}

impl From<&str> for Choice {
    fn from(value: &str) -> Choice {
        Choice {
            value: value.to_owned(),
            title: None,
        }
    }
}

impl From<String> for Choice {
    fn from(value: String) -> Choice {
        Choice { value, title: None }
    }
}

impl<V: Into<String>, T: Into<String>> From<(V, T)> for Choice {
    /// `(value, title)`.
    fn from((value, title): (V, T)) -> Choice {
        Choice {
            value: value.into(),
            title: Some(title.into()),
        }
    }
}

/// The methods every field builder has, and its conversion into a [`Field`].
macro_rules! common {
    ($($builder:ident),*) => {$(
        impl $builder {
            /// The field's label. Without one, clients show the property name.
            pub fn title(mut self, title: impl Into<String>) -> Self {
                self.0.set("title", title.into());
                self
            }

            /// Help text shown with the field.
            pub fn description(mut self, description: impl Into<String>) -> Self {
                self.0.set("description", description.into());
                self
            }

            /// Lists the property in `required`: the client must send it.
            pub fn required(mut self) -> Self {
                self.0.required = true;
                self
            }
        }

        impl From<$builder> for Field {
            fn from(builder: $builder) -> Field {
                builder.0
            }
        }
    )*};
}

common!(
    StringField,
    NumberField,
    BooleanField,
    SelectField,
    MultiSelectField
);

/// A string property being built: [`Field::string`].
#[derive(Debug, Clone)]
#[must_use]
pub struct StringField(Field);

impl StringField {
    /// `minLength`, in Unicode scalar values.
    pub fn min_length(mut self, n: u64) -> Self {
        self.0.set("minLength", n);
        self
    }

    /// `maxLength`, in Unicode scalar values.
    pub fn max_length(mut self, n: u64) -> Self {
        self.0.set("maxLength", n);
        self
    }

    /// One of the formats MCP allows: email, URI, date, date-time.
    pub fn format(mut self, format: Format) -> Self {
        self.0.set("format", format.as_str());
        self
    }

    /// The value the form starts with (2025-11-25 and later).
    pub fn default(mut self, value: impl Into<String>) -> Self {
        self.0.set("default", value.into());
        self
    }
}

/// A number or integer property being built: [`Field::integer`], [`Field::number`].
#[derive(Debug, Clone)]
#[must_use]
pub struct NumberField(Field);

impl NumberField {
    fn number(n: impl Into<serde_json::Number>) -> Value {
        Value::Number(n.into())
    }

    /// `minimum`, inclusive.
    pub fn min(mut self, n: impl Into<serde_json::Number>) -> Self {
        self.0.set("minimum", Self::number(n));
        self
    }

    /// `maximum`, inclusive.
    pub fn max(mut self, n: impl Into<serde_json::Number>) -> Self {
        self.0.set("maximum", Self::number(n));
        self
    }

    /// `minimum` and `maximum`, both inclusive.
    pub fn range(
        self,
        min: impl Into<serde_json::Number>,
        max: impl Into<serde_json::Number>,
    ) -> Self {
        self.min(min).max(max)
    }

    /// A fractional bound (`number` fields): `minimum`. A value that is not finite is refused by
    /// `build()`.
    pub fn min_f64(mut self, n: f64) -> Self {
        self.0.set("minimum", finite(n));
        self
    }

    /// A fractional bound (`number` fields): `maximum`. A value that is not finite is refused
    /// by `build()`.
    pub fn max_f64(mut self, n: f64) -> Self {
        self.0.set("maximum", finite(n));
        self
    }

    /// The value the form starts with (2025-11-25 and later).
    pub fn default(mut self, n: impl Into<serde_json::Number>) -> Self {
        self.0.set("default", Self::number(n));
        self
    }
}

/// A float as a JSON number, or a string the parser refuses as a bound.
fn finite(n: f64) -> Value {
    serde_json::Number::from_f64(n).map_or_else(|| Value::String(n.to_string()), Value::Number)
}

/// A boolean property being built: [`Field::boolean`].
#[derive(Debug, Clone)]
#[must_use]
pub struct BooleanField(Field);

impl BooleanField {
    /// The value the form starts with (every version).
    pub fn default(mut self, value: bool) -> Self {
        self.0.set("default", value);
        self
    }
}

/// A single-select being built: [`Field::select`], [`Field::titled_select`].
#[derive(Debug, Clone)]
#[must_use]
pub struct SelectField(Field);

impl SelectField {
    /// The choice the form starts with (2025-11-25 and later). As the parser does with a
    /// schema from elsewhere, `build()` lints one that is not among the choices
    /// ([`RequestedSchema::lint`]) and drops it: a client would show the form ready to submit
    /// and the answer would be refused, so it is never sent, and a reply without the field is
    /// not given it.
    ///
    /// ```
    /// use elicit_core::schema::RequestedSchema;
    /// use elicit_core::schema::Field;
    ///
    /// let schema = RequestedSchema::builder()
    ///     .field(Field::select("seat", ["in", "out"]).default("roof"))
    ///     .build()?;
    /// assert!(schema.lint()[0].message.contains("breaks its own rules"));
    /// assert!(!schema.properties()[0].kind.has_default());
    /// # Ok::<(), elicit_core::SchemaError>(())
    /// ```
    pub fn default(mut self, value: impl Into<String>) -> Self {
        self.0.set("default", value.into());
        self
    }
}

/// A multi-select being built: [`Field::multi_select`].
#[derive(Debug, Clone)]
#[must_use]
pub struct MultiSelectField(Field);

impl MultiSelectField {
    /// `minItems`: at least this many choices.
    pub fn min_items(mut self, n: u64) -> Self {
        self.0.set("minItems", n);
        self
    }

    /// `maxItems`: at most this many choices.
    pub fn max_items(mut self, n: u64) -> Self {
        self.0.set("maxItems", n);
        self
    }

    /// The choices the form starts with (2025-11-25 and later). A list that breaks the
    /// field's rules (a value not among the choices, too few or too many) is linted and
    /// dropped, never sent nor filled in, as with [`SelectField::default`].
    pub fn default<I>(mut self, values: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        let values: Vec<Value> = values
            .into_iter()
            .map(|v| Value::String(v.into()))
            .collect();
        self.0.set("default", values);
        self
    }
}
