//! Driving a parse: a first pass into the target, and where it fails a second pass that lists
//! every violation.
//!
//! Reply text goes first through the [fast pass](super::fast); a reply it does not read goes to
//! the report pass, then (if that finds nothing) into a `serde_json::Value`, whose content the
//! fast pass reads again written out as plain text, so a form has one reader for text. A
//! reply held as a `Value`, and the serde `Deserialize` impl, read straight into the target
//! through the adapters of [`super::adapter`]. Either way the first pass stops at the first
//! error the target itself raises (a string where `T` has a number, say); rules that do not
//! stop the target (a length, a range, a format) are all recorded in it already. When it
//! stops, the reply is read again as a [`Report`], which never stops, so the error lists
//! everything. A valid reply is read once.

use serde::de::DeserializeSeed;
use serde_json::Value;

use super::Sink;
use super::adapter::{ReadContent, Report};
use super::envelope::Envelope;
use super::fast::{self, Failure};
use crate::error::{ElicitError, Location, Rule, Violation};
use crate::limits::Limits;
use crate::model::RequestedSchema;
use crate::result::{ElicitAction, ElicitResult};

/// Refuses a reply over the size limit before any of it is parsed.
pub(crate) fn check_size(json: &[u8], limits: &Limits) -> Result<(), ElicitError> {
    if json.len() > limits.max_reply_bytes() {
        return Err(ElicitError::new(vec![Violation::new(
            Location::Envelope,
            Rule::ReplyTooLarge(limits.max_reply_bytes()),
            Some(format!("{} bytes", json.len())),
        )]));
    }
    Ok(())
}

/// Text that is not UTF-8, as an error.
pub(crate) fn utf8(json: &[u8]) -> Result<&str, ElicitError> {
    std::str::from_utf8(json).map_err(|e| {
        ElicitError::new(vec![Violation::new(
            Location::Envelope,
            Rule::Json(format!("invalid UTF-8: {e}")),
            None,
        )])
    })
}

/// Parses a reply held as JSON text: the fast pass, and the full parse where it gives up.
pub(crate) fn from_str<C: ReadContent>(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
) -> Result<ElicitResult<C>, ElicitError> {
    let mut content = None;
    let action = from_str_with(schema, json, limits, &mut |sink, object| {
        content = Some(C::fast(sink, object)?);
        Ok(())
    })?;
    match ElicitResult::of(action, content) {
        Some(outcome) => Ok(outcome),
        None => Err(unread(Failure::Shape)),
    }
}

/// [`from_str`] with the content of an accept read through `content`, which has read it when
/// this returns an accept. Not generic: each form compiles only the step that reads its type;
/// an optimized build inlines it into each.
#[inline]
fn from_str_with(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
    content: &mut fast::ReadInto<'_>,
) -> Result<ElicitAction, ElicitError> {
    check_size(json.as_bytes(), limits)?;
    match fast::read_with(schema, json, limits, content) {
        Ok(action) => Ok(action),
        Err(failure) => {
            let value = settle(schema, json, limits, failure)?;
            fast::read_value_with(schema, &value, limits, content).map_err(unread)
        }
    }
}

/// Content the report pass found nothing wrong with, that the fast pass did not read from the
/// `Value` either: the target's error, or (no such reply is known) a refusal that says so.
/// Not generic.
#[cold]
#[inline(never)]
fn unread(failure: Failure) -> ElicitError {
    let violation = match failure {
        Failure::Refused(violation) => violation,
        Failure::Shape => Violation::new(
            Location::Envelope,
            Rule::Deserialize("the reply could not be read".into()),
            None,
        ),
    };
    ElicitError::new(vec![violation])
}

/// The full parse of JSON text, for every reply the fast pass does not read. The report pass
/// goes first and names every violation and syntax error. Where it finds none, the error is the
/// one the target raised in the fast pass; or, where the fast pass did not read the reply's
/// shape, the reply as a `serde_json::Value`, whose content the caller writes out again as
/// text for the fast pass, so that each form has one reader compiled for it. Not generic.
fn settle(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
    failure: Failure,
) -> Result<Value, ElicitError> {
    let (mut violations, error) = report_str(schema, json, limits);
    if let Some(e) = error.filter(|e| e.is_syntax() || e.is_eof()) {
        violations.push(json_error(&e));
    }
    if !violations.is_empty() {
        return Err(ElicitError::new(violations));
    }
    match failure {
        Failure::Refused(violation) => Err(ElicitError::new(vec![violation])),
        Failure::Shape => {
            serde_json::from_str(json).map_err(|e| ElicitError::new(vec![json_error(&e)]))
        }
    }
}

/// A reply that is not well-formed JSON.
fn json_error(e: &serde_json::Error) -> Violation {
    Violation::new(Location::Envelope, Rule::Json(e.to_string()), None)
}

/// One pass of serde_json over the text straight into `C`, the report pass where it fails: the
/// reference that the tests hold [`from_str`] to.
#[cfg(feature = "testing")]
pub(crate) fn reference_str<C: ReadContent>(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
) -> Result<ElicitResult<C>, ElicitError> {
    let sink = Sink::with_limits(schema, limits);
    let mut de = serde_json::Deserializer::from_str(json);
    let fast = Envelope::<C>::new(&sink)
        .deserialize(&mut de)
        .and_then(|outcome| de.end().map(|()| outcome));
    finish(sink, fast, &|| report_str(schema, json, limits))
}

/// The report pass over JSON text: every violation, and the error that stopped it if any.
fn report_str(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
) -> (Vec<Violation>, Option<serde_json::Error>) {
    let sink = Sink::with_limits(schema, limits);
    let mut de = serde_json::Deserializer::from_str(json);
    let slow = Envelope::<Report>::new(&sink)
        .deserialize(&mut de)
        .and_then(|_| de.end());
    (sink.take(), slow.err())
}

/// Parses a reply held as a JSON value.
pub(crate) fn from_value<C: ReadContent>(
    schema: &RequestedSchema,
    value: &Value,
) -> Result<ElicitResult<C>, ElicitError> {
    from_value_with(schema, value, &Limits::DEFAULT)
}

fn from_value_with<C: ReadContent>(
    schema: &RequestedSchema,
    value: &Value,
    limits: &Limits,
) -> Result<ElicitResult<C>, ElicitError> {
    let sink = Sink::with_limits(schema, limits);
    let fast = Envelope::<C>::new(&sink).deserialize(value);
    finish(sink, fast, &|| report_value(schema, value, limits))
}

/// The report pass over a JSON value.
fn report_value(
    schema: &RequestedSchema,
    value: &Value,
    limits: &Limits,
) -> (Vec<Violation>, Option<serde_json::Error>) {
    let sink = Sink::with_limits(schema, limits);
    let slow = Envelope::<Report>::new(&sink).deserialize(value);
    (sink.take(), slow.err())
}

/// Reads accepted content already taken out of its envelope, as an SDK's typed result holds it
/// (absent content reads as `{}`). The reader is the one [`from_value`] uses for content.
#[cfg(feature = "rmcp")]
pub(crate) fn from_content<C: ReadContent>(
    schema: &RequestedSchema,
    content: Option<&Value>,
) -> Result<C, ElicitError> {
    use super::adapter::ContentSeed;
    let null = Value::Null;
    let content = content.unwrap_or(&null);
    let sink = Sink::new(schema);
    let first = ContentSeed::<C>::new(&sink).deserialize(content);
    match first {
        Ok(content) if sink.is_empty() => Ok(content),
        Ok(_) => Err(sink.into_error()),
        Err(e) => Err(report_failure(sink, e, &|| {
            let sink = Sink::new(schema);
            let slow = ContentSeed::<Report>::new(&sink).deserialize(content);
            (sink.take(), slow.err())
        })),
    }
}

/// Parses a URL-mode reply held as JSON text: the action only.
pub(crate) fn consent_from_str(json: &str) -> Result<ElicitResult<Report>, ElicitError> {
    check_size(json.as_bytes(), &Limits::DEFAULT)?;
    let schema = RequestedSchema::empty();
    let sink = Sink::new(schema);
    let mut de = serde_json::Deserializer::from_str(json);
    let fast = Envelope::consent(&sink)
        .deserialize(&mut de)
        .and_then(|outcome| de.end().map(|()| outcome));
    // Content is never read and the reply is read as any JSON, so the first pass already saw
    // everything there is to report.
    finish(sink, fast, &|| (Vec::new(), None))
}

/// Parses a URL-mode reply held as a JSON value.
pub(crate) fn consent_from_value(value: &Value) -> Result<ElicitResult<Report>, ElicitError> {
    let sink = Sink::new(RequestedSchema::empty());
    let fast = Envelope::consent(&sink).deserialize(value);
    finish(sink, fast, &|| (Vec::new(), None))
}

/// The outcome of the fast pass, or the error that lists every violation. Only the success
/// path is generic; the rest is compiled once.
fn finish<C>(
    sink: Sink<'_>,
    fast: Result<ElicitResult<C>, serde_json::Error>,
    report: &dyn Fn() -> (Vec<Violation>, Option<serde_json::Error>),
) -> Result<ElicitResult<C>, ElicitError> {
    match fast {
        Ok(outcome) if sink.is_empty() => Ok(outcome),
        Ok(_) => Err(sink.into_error()),
        Err(fast_error) => Err(report_failure(sink, fast_error, report)),
    }
}

#[cold]
#[inline(never)]
fn report_failure(
    sink: Sink<'_>,
    fast_error: serde_json::Error,
    report: &dyn Fn() -> (Vec<Violation>, Option<serde_json::Error>),
) -> ElicitError {
    let (violations, slow_error) = report();
    failure(sink, fast_error, violations, slow_error)
}

/// The error for a reply the fast pass could not finish. Not generic: compiled once.
#[cold]
#[inline(never)]
fn failure(
    sink: Sink<'_>,
    fast_error: serde_json::Error,
    mut violations: Vec<Violation>,
    slow_error: Option<serde_json::Error>,
) -> ElicitError {
    if violations.is_empty() {
        violations = sink.take();
    }
    if let Some(e) = slow_error
        && (e.is_syntax() || e.is_eof())
    {
        violations.push(Violation::new(
            Location::Envelope,
            Rule::Json(e.to_string()),
            None,
        ));
    }
    if violations.is_empty() {
        // Nothing in the schema explains the failure: the target type refused a value the
        // schema allows (a custom `deserialize_with`, say). Name where it happened.
        let rule = if fast_error.is_syntax() || fast_error.is_eof() {
            Rule::Json(fast_error.to_string())
        } else {
            Rule::Deserialize(fast_error.to_string())
        };
        violations.push(Violation::new(sink.current_location(), rule, None));
    }
    ElicitError::new(violations)
}
