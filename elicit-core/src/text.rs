//! Violations in words for the person who filled in the form: the field labels they saw, no
//! schema keywords, no backticks, one line.

use crate::error::{ElicitError, Location, Rule, Violation, plural};
use crate::schema::{Kind, Property, RequestedSchema, words};

impl ElicitError {
    /// The violations as a person reads them, on one line, each naming the field by the label
    /// the form showed (its `title`, else its name):
    /// `Party size must be at most 12 (you entered 40); Seating must be one of: Indoor, Outdoor`.
    ///
    /// `Display` is for code and models (wire names, schema keywords); this is for the user,
    /// for example in the message of a form asked again. `schema` is the form the reply
    /// answered.
    ///
    /// ```
    /// use elicit_core::schema::RequestedSchema;
    /// use elicit_core::schema::Field;
    ///
    /// let schema = RequestedSchema::builder()
    ///     .field(Field::integer("party_size").title("Party size").range(1, 12).required())
    ///     .field(Field::titled_select("seating", [("in", "Indoor"), ("out", "Outdoor")]).title("Seating"))
    ///     .build()?;
    /// let reply = r#"{"action":"accept","content":{"party_size":40,"seating":"roof"}}"#;
    /// let error = schema.parse_reply_json(reply).unwrap_err();
    /// assert_eq!(
    ///     error.user_text(&schema),
    ///     "Party size must be at most 12 (you entered 40); \
    ///      Seating must be one of: Indoor, Outdoor (you entered \"roof\")"
    /// );
    /// # Ok::<(), elicit_core::SchemaError>(())
    /// ```
    #[must_use]
    pub fn user_text(&self, schema: &RequestedSchema) -> String {
        let mut parts: Vec<String> = Vec::new();
        for v in self.violations() {
            let part = sentence(v, schema);
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        parts.join("; ")
    }
}

/// One violation as a sentence.
fn sentence(v: &Violation, schema: &RequestedSchema) -> String {
    let property = v
        .property()
        .and_then(|name| schema.properties().iter().find(|p| p.name == name));
    let label = match (v.location(), property) {
        (Location::Envelope, _) => return "The answer could not be read".into(),
        (Location::Content, _) => {
            return match v.rule() {
                rule @ (Rule::Custom(_) | Rule::More(_)) => rule_text(rule, None),
                _ => "The answer could not be read".into(),
            };
        }
        (_, Some(p)) => p.title.clone().unwrap_or_else(|| p.name.clone()),
        (_, None) => v.property().unwrap_or_default().to_owned(),
    };
    let label = match v.location() {
        Location::Item(_, index) => format!("{label}, choice {}", index + 1),
        _ => label,
    };
    let mut text = format!("{label} {}", rule_text(v.rule(), property));
    if let Some(received) = v.received().filter(|_| shows_received(v.rule())) {
        text.push_str(&format!(" (you entered {received})"));
    }
    text
}

/// Whether the value received helps the user see the mistake.
fn shows_received(rule: &Rule) -> bool {
    !matches!(
        rule,
        Rule::Required
            | Rule::TooLong(_)
            | Rule::Custom(_)
            | Rule::More(_)
            | Rule::PatternBudget
            | Rule::MinItems(_)
            | Rule::MaxItems(_)
    )
}

/// What the rule asks, in words, for the property (when known) it is about.
fn rule_text(rule: &Rule, property: Option<&Property>) -> String {
    match rule {
        Rule::Required => "is required".into(),
        Rule::Type { expected } => format!("must be {}", words::json_type(expected)),
        Rule::MinLength(n) => format!("must be at least {}", plural(*n, "character", "characters")),
        Rule::MaxLength(n) => format!("must be at most {}", plural(*n, "character", "characters")),
        Rule::Minimum(n) => format!("must be at least {n}"),
        Rule::Maximum(n) => format!("must be at most {n}"),
        Rule::ExclusiveMinimum(n) => format!("must be more than {n}"),
        Rule::ExclusiveMaximum(n) => format!("must be less than {n}"),
        Rule::Format(format) => format!("must be a valid {}", format.describe()),
        Rule::Pattern(_) | Rule::PatternBudget => "is not in the expected form".into(),
        Rule::NotAChoice => match property.and_then(|p| p.kind.choices()) {
            Some(list) if list.len() <= 12 => format!("must be one of: {}", words::labels(list)),
            _ => "must be one of the choices offered".into(),
        },
        Rule::MinItems(n) => format!("needs at least {}", plural(*n, "choice", "choices")),
        Rule::MaxItems(n) => format!("allows at most {}", plural(*n, "choice", "choices")),
        Rule::UniqueItems => "cannot hold the same choice twice".into(),
        Rule::TooLong(_) => "is too long".into(),
        Rule::UnknownProperty => "is not part of this form".into(),
        Rule::DuplicateKey => "was sent twice".into(),
        Rule::Custom(message) => message.clone(),
        Rule::More(n) => {
            let n = u64::try_from(*n).unwrap_or(u64::MAX);
            format!("and {}", plural(n, "more problem", "more problems"))
        }
        Rule::Deserialize(_)
        | Rule::Json(_)
        | Rule::ActionMissing
        | Rule::ActionInvalid
        | Rule::ContentNotObject
        | Rule::ReplyTooLarge(_) => match property.map(|p| &p.kind) {
            Some(Kind::Number(r)) if r.integer => {
                format!("must be {}", words::json_type("integer"))
            }
            _ => "was not accepted".into(),
        },
    }
}
