//! Reading a reply: the source's deserializer, then the [envelope](envelope), then the
//! [validating adapter](adapter) around the target: a user's `T`, the runtime's map, or
//! nothing but the list of violations.
//!
//! A reply is read once, straight into its target. A broken rule that does not stop the target
//! (a length, a range, a format) is recorded in the [`Sink`] and reading goes on. One that does
//! (a string where `T` has a number) stops it; the reply is then read again by the report pass,
//! which keeps nothing and never stops, so the error lists every violation.

pub(crate) mod adapter;
mod check;
mod content;
mod early;
pub(crate) mod envelope;
mod json_text;
pub(crate) mod sink;
mod typed;

pub use content::Content;
pub use json_text::JsonText;

use serde::de::DeserializeSeed;
use serde_json::Value;

use self::adapter::{ContentSeed, ReadContent, Report, Skipped};
use self::early::Hold;
use self::envelope::Envelope;
use self::sink::Sink;
use crate::error::{ElicitError, Location, Rule, Violation};
use crate::limits::Limits;
use crate::result::ElicitResult;
use crate::schema::RequestedSchema;

/// What one pass over a reply comes to.
type Read<C> = Result<ElicitResult<C>, serde_json::Error>;

/// A reply that can be read more than once: by the first pass, and by the report pass where
/// the first one stops.
trait Source {
    fn read<C: ReadContent>(&self, envelope: Envelope<'_, '_, C>) -> Read<C>;
}

/// Reply text.
struct Text<'a>(&'a str);

impl Source for Text<'_> {
    fn read<C: ReadContent>(&self, envelope: Envelope<'_, '_, C>) -> Read<C> {
        let mut de = serde_json::Deserializer::from_str(self.0);
        let outcome = envelope.holding(early::Raw).deserialize(&mut de)?;
        de.end()?;
        Ok(outcome)
    }
}

/// A reply held as a JSON value.
struct Json<'a>(&'a Value);

impl Source for Json<'_> {
    /// The envelope first, its content skipped, by one reader for every target; then the
    /// content, where it is, as the envelope would have read it (`null` and no content read
    /// as `{}`), so that a form's reader is not compiled again with the envelope's. The report
    /// pass, which names a reply that is no object, reads the envelope as any JSON.
    fn read<C: ReadContent>(&self, envelope: Envelope<'_, '_, C>) -> Read<C> {
        let content = early::Given(self.0.get("content"));
        if C::ANY {
            return envelope.holding(content).deserialize(self.0);
        }
        let (envelope, sink) = envelope.skipping();
        Ok(
            match envelope.holding(early::Given(None)).deserialize(self.0)? {
                ElicitResult::Accept(Skipped) => {
                    ElicitResult::Accept(content.read(Some(()), ContentSeed::new(sink))?)
                }
                ElicitResult::Decline => ElicitResult::Decline,
                ElicitResult::Cancel => ElicitResult::Cancel,
            },
        )
    }
}

/// The error for a reply over the size limit, which is refused before any of it is parsed.
fn too_large(bytes: usize, limits: &Limits) -> ElicitError {
    ElicitError::new(vec![Violation::new(
        Location::Envelope,
        Rule::ReplyTooLarge(limits.max_reply_bytes()),
        Some(format!("{bytes} bytes")),
    )])
}

/// Reads a reply held as JSON text or bytes; bytes that are not UTF-8 are a JSON error.
pub(crate) fn from_text<C: ReadContent>(
    schema: &RequestedSchema,
    json: &(impl JsonText + ?Sized),
    limits: &Limits,
) -> Result<ElicitResult<C>, ElicitError> {
    read(schema, &Text(utf8(json, limits)?), limits)
}

/// The reply's text, once it is known to be within the size limit and UTF-8.
fn utf8<'a>(json: &'a (impl JsonText + ?Sized), limits: &Limits) -> Result<&'a str, ElicitError> {
    let (Ok(text) | Err(text)) = json.text_or_bytes().map(str::as_bytes);
    if text.len() > limits.max_reply_bytes() {
        return Err(too_large(text.len(), limits));
    }
    match json.text_or_bytes() {
        Ok(text) => Ok(text),
        Err(bytes) => std::str::from_utf8(bytes).map_err(|e| not_utf8(&e)),
    }
}

/// Reads a reply held as a JSON value.
pub(crate) fn from_value<C: ReadContent>(
    schema: &RequestedSchema,
    value: &Value,
    limits: &Limits,
) -> Result<ElicitResult<C>, ElicitError> {
    read(schema, &Json(value), limits)
}

/// Reads a URL-mode reply held as JSON text or bytes: the action only.
pub(crate) fn consent_from_text(
    json: &(impl JsonText + ?Sized),
    limits: &Limits,
) -> Result<ElicitResult<Report>, ElicitError> {
    consent(&Text(utf8(json, limits)?))
}

/// The error for reply bytes that are not UTF-8.
fn not_utf8(e: &std::str::Utf8Error) -> ElicitError {
    let rule = Rule::Json(format!("invalid UTF-8: {e}"));
    ElicitError::new(vec![Violation::new(Location::Envelope, rule, None)])
}

/// Reads a URL-mode reply held as a JSON value.
pub(crate) fn consent_from_value(value: &Value) -> Result<ElicitResult<Report>, ElicitError> {
    consent(&Json(value))
}

/// The first pass, and the report pass where it stops.
fn read<C: ReadContent>(
    schema: &RequestedSchema,
    source: &impl Source,
    limits: &Limits,
) -> Result<ElicitResult<C>, ElicitError> {
    let sink = Sink::new(schema, limits);
    match source.read(Envelope::<C>::new(&sink)) {
        Ok(outcome) if sink.is_empty() => Ok(outcome),
        Ok(_) => Err(sink.into_error()),
        Err(error) => Err(report(&sink, &error, source, limits)),
    }
}

/// The error for a reply whose first pass stopped at `error`: the report pass reads it again.
fn report(
    first: &Sink<'_>,
    error: &serde_json::Error,
    source: &impl Source,
    limits: &Limits,
) -> ElicitError {
    let report = Sink::new(first.schema, limits);
    let stopped = source.read(Envelope::<Report>::new(&report)).err();
    failure(first, error, report.take(), stopped)
}

/// A URL-mode reply: only the action matters, and the reply is read as any JSON, so the first
/// pass sees all there is to report.
fn consent(source: &impl Source) -> Result<ElicitResult<Report>, ElicitError> {
    let sink = Sink::new(RequestedSchema::empty(), &Limits::DEFAULT);
    match source.read(Envelope::consent(&sink)) {
        Ok(outcome) if sink.is_empty() => Ok(outcome),
        Ok(_) => Err(sink.into_error()),
        Err(error) => Err(failure(&sink, &error, Vec::new(), None)),
    }
}

/// The error for a reply the first pass could not finish: what the report pass found, else
/// what the first pass found, else the error that stopped it, named where it happened.
fn failure(
    first: &Sink<'_>,
    error: &serde_json::Error,
    mut violations: Vec<Violation>,
    stopped: Option<serde_json::Error>,
) -> ElicitError {
    let json =
        |e: &serde_json::Error| Violation::new(Location::Envelope, Rule::Json(e.to_string()), None);
    if violations.is_empty() {
        violations = first.take();
    }
    if let Some(e) = stopped.filter(|e| e.is_syntax() || e.is_eof()) {
        violations.push(json(&e));
    }
    if violations.is_empty() {
        // Nothing in the schema explains the failure: the target type refused a value the
        // schema allows (a custom `deserialize_with`, say).
        violations.push(if error.is_syntax() || error.is_eof() {
            json(error)
        } else {
            let rule = Rule::Deserialize(error.to_string());
            Violation::new(first.current_location(), rule, None)
        });
    }
    ElicitError::new(violations)
}
