//! The client's side of a form: checking content before it is sent, building the accept, and
//! turning text typed into a field into the value the schema asks for.

use serde::de::DeserializeSeed;
use serde_json::{Map, Number, Value};

use crate::error::{ElicitError, Location, Rule, Violation};
use crate::limits::Limits;
use crate::reply::adapter::{ContentSeed, Report};
use crate::reply::sink::Sink;
use crate::result::ElicitResult;
use crate::schema::lower::MAX_SAFE_INTEGER;
use crate::schema::parse::is_integral;
use crate::schema::{Choice, Kind, RequestedSchema};

impl RequestedSchema {
    /// Checks content against the schema, as a client should before sending it, and returns every
    /// violation.
    pub fn validate_content(&self, content: &Map<String, Value>) -> Result<(), ElicitError> {
        let sink = Sink::new(self, &Limits::DEFAULT);
        let read = ContentSeed::<Report>::new(&sink).deserialize(content);
        let mut violations = sink.take();
        if let Err(e) = read
            && violations.is_empty()
        {
            violations.push(Violation::new(
                Location::Envelope,
                Rule::Deserialize(e.to_string()),
                None,
            ));
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(ElicitError::new(violations))
        }
    }

    /// Checks one property's value alone, as a form does when the user leaves a field; the
    /// rules that concern other properties (`required`) are not applied.
    pub fn validate_property(&self, property: &str, value: &Value) -> Result<(), ElicitError> {
        let mut content = Map::new();
        content.insert(property.to_owned(), value.clone());
        match self.validate_content(&content) {
            Ok(()) => Ok(()),
            Err(e) => {
                let own: Vec<Violation> = e
                    .violations()
                    .iter()
                    .filter(|v| v.property() == Some(property))
                    .cloned()
                    .collect();
                if own.is_empty() {
                    Ok(())
                } else {
                    Err(ElicitError::new(own))
                }
            }
        }
    }

    /// Builds the accept a client sends: fills defaults for absent properties, then validates.
    /// Serialize the result to get `{"action":"accept","content":{..}}`.
    pub fn accept(
        &self,
        mut content: Map<String, Value>,
    ) -> Result<ElicitResult<Map<String, Value>>, ElicitError> {
        self.fill_defaults(&mut content);
        self.validate_content(&content)?;
        Ok(ElicitResult::Accept(content))
    }

    /// Turns text typed into a form field into the JSON value the schema asks for: `"42"` for an
    /// integer, `"true"`/`"yes"`/`"1"` for a boolean, a comma list for a multi-select, a choice's
    /// title for its value. Empty text is `None`: leave the property out.
    ///
    /// This is for clients that collect text. It is never applied when a server reads a reply:
    /// there, `"42"` for an integer is a type error.
    pub fn coerce_text(&self, property: &str, text: &str) -> Result<Option<Value>, ElicitError> {
        let Some(prop) = self.property(property) else {
            return Err(ElicitError::new(vec![Violation::new(
                Location::Property(property.to_owned()),
                Rule::UnknownProperty,
                None,
            )]));
        };
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let wrong = || {
            ElicitError::new(vec![Violation::new(
                Location::Property(property.to_owned()),
                Rule::Type {
                    expected: prop.kind.json_type(),
                },
                Some(format!("{text:?}")),
            )])
        };
        let value = match &prop.kind {
            Kind::String(_) => Value::String(text.to_owned()),
            Kind::Number(rules) => coerce_number(text, rules.integer).ok_or_else(wrong)?,
            Kind::Boolean(_) => match text.to_ascii_lowercase().as_str() {
                "true" | "yes" | "y" | "on" | "1" => Value::Bool(true),
                "false" | "no" | "n" | "off" | "0" => Value::Bool(false),
                _ => return Err(wrong()),
            },
            Kind::Select(rules) => Value::String(choice_value(&rules.choices, text)),
            Kind::MultiSelect(rules) => Value::Array(
                text.split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(|t| Value::String(choice_value(&rules.choices, t)))
                    .collect(),
            ),
        };
        Ok(Some(value))
    }

    /// Coerces every string in `content` that belongs to a property, as
    /// [`coerce_text`](Self::coerce_text) does: blank text is dropped (not filled in), text for
    /// other kinds becomes their values. Values it cannot coerce are left for validation to
    /// report.
    #[must_use]
    pub fn coerce_content(&self, content: &Map<String, Value>) -> Map<String, Value> {
        content
            .iter()
            .filter_map(|(key, value)| {
                let coerced = match (self.property(key), value) {
                    (Some(_), Value::String(text)) => match self.coerce_text(key, text) {
                        Ok(Some(v)) => v,
                        Ok(None) => return None,
                        Err(_) => value.clone(),
                    },
                    _ => value.clone(),
                };
                Some((key.clone(), coerced))
            })
            .collect()
    }
}

fn coerce_number(text: &str, integer: bool) -> Option<Value> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(Value::from(n));
    }
    if let Ok(n) = text.parse::<u64>() {
        return Some(Value::from(n));
    }
    let n = Number::from_f64(text.parse::<f64>().ok()?)?;
    if integer {
        // "42.0" is the integer 42; "42.5" is not an integer at all.
        let f = n.as_f64()?;
        return (is_integral(&n) && f.abs() <= MAX_SAFE_INTEGER).then(|| Value::from(f as i64));
    }
    Some(Value::Number(n))
}

/// The value of the choice `text` names: its value, else its title, else either ignoring case.
/// Unknown text is kept, for validation to report.
fn choice_value(choices: &[Choice], text: &str) -> String {
    let exact = choices
        .iter()
        .find(|c| c.value == text || c.title.as_deref() == Some(text));
    let loose = || {
        choices.iter().find(|c| {
            c.value.eq_ignore_ascii_case(text)
                || c.title
                    .as_deref()
                    .is_some_and(|t| t.eq_ignore_ascii_case(text))
        })
    };
    exact
        .or_else(loose)
        .map_or_else(|| text.to_owned(), |c| c.value.clone())
}
