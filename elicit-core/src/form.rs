//! [`Form<T>`]: a derived form whose choice lists are given per request, and the handle that
//! reads the reply against the schema that was sent; and [`Confirm`], the ready-made yes/no
//! form.

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::derive_support;
use crate::elicit::Elicit;
use crate::error::{ElicitError, SchemaError};
use crate::limits::Limits;
use crate::reply::{self, JsonText};
use crate::result::ElicitResult;
use crate::schema::request::FormRequest;
use crate::schema::{Choice, Kind, MultiSelectRules, RequestedSchema, SelectRules, SelectStyle};

/// One request for a derived form `T`, with choice lists given at run time: "pick one of your
/// repositories", "which of these open pull requests".
///
/// Build it from `T`'s schema, give the choices of each field that takes them, send
/// [`request`](Form::request), and read the reply with [`parse_reply_json`](Form::parse_reply_json) or
/// [`parse_reply_value`](Form::parse_reply_value): the answer is a `T`, checked against the schema that was
/// sent, so a value that was a choice on another request is refused.
///
/// A field takes run-time choices when `T` can hold every one of them:
/// - a `String` field becomes a single-select of the choices; each must pass the field's own
///   rules (length, format);
/// - a single- or multi-select field (an enum, or a `Vec` or set of one) keeps only the choices
///   given, which must be among its own, in the order given.
///
/// Anything else (a name `T` does not have, a number or boolean field, a choice `T` cannot hold,
/// no choices, a repeated one) is refused by [`choices`](Form::choices), before anything is
/// sent.
///
/// ```
/// use elicit_core::{Elicit, ElicitResult, Form};
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// /// Open a pull request.
/// #[derive(Debug, Deserialize, JsonSchema, Elicit)]
/// struct PullRequest {
///     /// Repository
///     repo: String,
///     /// Branch
///     #[schemars(length(min = 1))]
///     branch: String,
/// }
///
/// let form = Form::<PullRequest>::new()
///     .choices("repo", [("api", "API"), ("web", "Web site"), ("docs", "Documentation")])?;
/// let sent = serde_json::to_value(form.schema())?;
/// assert_eq!(sent["properties"]["repo"]["oneOf"][2]["title"], "Documentation");
///
/// let reply = r#"{"action":"accept","content":{"repo":"web","branch":"main"}}"#;
/// let Ok(ElicitResult::Accept(pr)) = form.parse_reply_json(reply) else { panic!() };
/// assert_eq!(pr.repo, "web");
/// // Not one of this request's choices, though `T` could hold it:
/// let reply = r#"{"action":"accept","content":{"repo":"cli","branch":"main"}}"#;
/// assert!(form.parse_reply_json(reply).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Form<T> {
    schema: RequestedSchema,
    message: String,
    target: PhantomData<fn() -> T>,
}

impl<T: Elicit> Default for Form<T> {
    fn default() -> Self {
        Form::new()
    }
}

impl<T: Elicit> Form<T> {
    /// `T`'s form with its own message and choices, for the newest protocol version.
    #[must_use]
    pub fn new() -> Self {
        Form {
            schema: T::requested_schema().clone(),
            message: T::message().to_owned(),
            target: PhantomData,
        }
    }

    /// Replaces the message shown with the form.
    #[must_use]
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// Gives `property` (its name on the wire) these choices, in display order. A choice is a
    /// value (`"api"`, a `String`) or a value and the title a client shows for it
    /// (`("docs", "Documentation")`); the select is written with titles when any has one.
    pub fn choices<I>(mut self, property: &str, choices: I) -> Result<Self, SchemaError>
    where
        I: IntoIterator,
        I::Item: Into<Choice>,
    {
        let choices: Vec<Choice> = choices.into_iter().map(Into::into).collect();
        let refuse = |message: String| SchemaError::property(property, message);
        let base = T::requested_schema();
        let Some(own) = base.properties().iter().find(|p| p.name == property) else {
            return Err(refuse(format!(
                "is not a property of this form; it has {}",
                names(base)
            )));
        };
        if choices.is_empty() {
            return Err(refuse("needs at least one choice".into()));
        }
        for (i, c) in choices.iter().enumerate() {
            if choices[..i].iter().any(|d| d.value == c.value) {
                return Err(refuse(format!("lists the choice {:?} twice", c.value)));
            }
        }
        let kind = match &own.kind {
            Kind::String(_) => {
                for c in &choices {
                    if let Err(e) =
                        base.validate_property(property, &Value::String(c.value.clone()))
                    {
                        return Err(refuse(format!(
                            "cannot offer {:?}: the form's own rules refuse it ({e})",
                            c.value
                        )));
                    }
                }
                Kind::Select(SelectRules::new(choices))
            }
            Kind::Select(rules) => {
                let mut narrowed =
                    SelectRules::new(subset(&rules.choices, choices).map_err(refuse)?);
                // The field's style and default stay, where the default is still offered.
                if rules.style == SelectStyle::Titled {
                    narrowed.style = SelectStyle::Titled;
                }
                narrowed.default = rules
                    .default
                    .clone()
                    .filter(|d| narrowed.choices.iter().any(|c| &c.value == d));
                Kind::Select(narrowed)
            }
            Kind::MultiSelect(rules) => {
                let mut narrowed =
                    MultiSelectRules::new(subset(&rules.choices, choices).map_err(refuse)?);
                narrowed.min_items = rules.min_items;
                narrowed.max_items = rules.max_items;
                narrowed.unique = rules.unique;
                narrowed.titled |= rules.titled;
                narrowed.default = rules.default.as_ref().map(|default| {
                    default
                        .iter()
                        .filter(|d| narrowed.choices.iter().any(|c| &c.value == *d))
                        .cloned()
                        .collect()
                });
                Kind::MultiSelect(narrowed)
            }
            other => {
                let article = if other.json_type() == "integer" {
                    "an"
                } else {
                    "a"
                };
                return Err(refuse(format!(
                    "is {article} {} field; only string, single-select and multi-select fields \
                     take choices",
                    other.json_type()
                )));
            }
        };
        let mut properties = self.schema.properties().to_vec();
        if let Some(p) = properties.iter_mut().find(|p| p.name == property) {
            // The bound hint follows the new kind: it is made from the rules when written.
            p.kind = kind;
        }
        self.schema.properties = properties;
        self.schema.reindex();
        Ok(self)
    }

    /// The message shown with the form.
    #[cfg(feature = "ask")]
    pub(crate) fn message_text(&self) -> &str {
        &self.message
    }

    /// The schema to send: `T`'s, with the choices given.
    #[must_use]
    pub fn schema(&self) -> &RequestedSchema {
        &self.schema
    }

    /// The `elicitation/create` params for the newest version; write them for another with
    /// [`FormRequest::with_version`].
    #[must_use]
    pub fn request(&self) -> FormRequest<'_> {
        FormRequest::new(self.message.as_str(), &self.schema)
    }

    /// Reads this form's replies under `limits` (see
    /// [`RequestedSchema::with_limits`]).
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.schema = self.schema.with_limits(limits);
        self
    }

    /// Reads a reply to this request from JSON text or bytes ([`JsonText`]), checked against
    /// the schema sent, reporting every violation. Decline and cancel carry no `T`.
    pub fn parse_reply_json(
        &self,
        json: &(impl JsonText + ?Sized),
    ) -> Result<ElicitResult<T>, ElicitError> {
        reply::from_text(&self.schema, json, &self.schema.limits)?.check()
    }

    /// [`parse_reply_json`](Self::parse_reply_json) of a reply already held as a JSON value.
    pub fn parse_reply_value(&self, reply: &Value) -> Result<ElicitResult<T>, ElicitError> {
        reply::from_value(&self.schema, reply, &self.schema.limits)?.check()
    }
}

/// The property names of `schema`, for an error message.
fn names(schema: &RequestedSchema) -> String {
    let names: Vec<String> = schema
        .properties()
        .iter()
        .map(|p| format!("`{}`", p.name))
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// `given`, each of which must be among `own`; a choice given without a title keeps its own.
fn subset(own: &[Choice], given: Vec<Choice>) -> Result<Vec<Choice>, String> {
    given
        .into_iter()
        .map(|c| match own.iter().find(|o| o.value == c.value) {
            Some(o) => Ok(Choice {
                title: c.title.or_else(|| o.title.clone()),
                value: c.value,
            }),
            None => Err(format!(
                "cannot offer {:?}: the field holds only {}",
                c.value,
                own.iter()
                    .map(|o| format!("{:?}", o.value))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        })
        .collect()
}

/// A yes/no question: one required boolean, `confirmed`, labelled "Confirm" and unchecked at
/// first. Give the question as the message of each request:
/// `Form::<Confirm>::new().message("Deploy to production?")`. In a tool, `ask.confirm(key,
/// message)` asks it, and reads the answer as a `Confirmation` that fails closed.
///
/// Why one boolean rather than a form with no fields: an empty form gives the user nothing to
/// press but the client's own buttons, and some clients cannot submit one at all (VS Code shows
/// an empty form whose Submit does nothing, so the call hangs). A checkbox says what is being
/// agreed to, reads the same in every client, and tells "accepted without checking" apart from
/// a confirmation.
///
/// ```
/// use elicit_core::{Confirm, ElicitResult};
///
/// let yes = ElicitResult::<Confirm>::from_json(r#"{"action":"accept","content":{"confirmed":true}}"#)?;
/// assert!(yes.is_confirmed());
/// let unchecked = ElicitResult::<Confirm>::from_json(r#"{"action":"accept","content":{"confirmed":false}}"#)?;
/// assert!(!unchecked.is_confirmed());
/// assert!(!ElicitResult::<Confirm>::from_json(r#"{"action":"decline"}"#)?.is_confirmed());
/// # Ok::<(), elicit_core::ElicitError>(())
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Confirm {
    /// Whether the user checked the box.
    #[schemars(title = "Confirm", description = "Check to go ahead.", extend("default" = false))]
    pub confirmed: bool,
}

impl Elicit for Confirm {
    const __ELICIT_MESSAGE: &'static str = "Please confirm.";
    const __ELICIT_FIELDS: &'static [derive_support::FieldHooks] = &[derive_support::FieldHooks {
        variants: <bool as derive_support::ElicitField>::__elicit_variants,
        enum_names: <bool as derive_support::ElicitField>::__elicit_enum_names,
        option: <bool as derive_support::ElicitField>::__elicit_is_option,
        part: None,
    }];

    fn __elicit_cache() -> &'static derive_support::SchemaCache {
        static CACHE: derive_support::SchemaCache = derive_support::SchemaCache::new();
        &CACHE
    }
}

impl ElicitResult<Confirm> {
    /// Whether the user accepted with the box checked. A decline, a cancel, or an accept
    /// without the box checked are all "no".
    #[must_use]
    pub fn is_confirmed(&self) -> bool {
        matches!(self, ElicitResult::Accept(Confirm { confirmed: true }))
    }
}
