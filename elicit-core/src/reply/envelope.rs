//! The reply envelope `{"action": .., "content": ..}`, read in one pass.
//!
//! `action` decides what `content` is: validated into the target on accept, skipped unread on
//! decline and cancel. When `content` comes first, it is held until `action` says, as the
//! source allows ([`Hold`]), and then read as content that comes after.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::adapter::{ContentSeed, ReadContent, Report, Skipped};
use super::check::stop;
use super::early::{Hold, Pairs};
use super::sink::{Sink, refuse_others};
use crate::error::{Location, Rule};
use crate::result::{ElicitAction, ElicitResult};

/// Reads a whole reply, checking the content of an accept into `C`; content that comes before
/// `action` is held by `H`.
pub(crate) struct Envelope<'a, 's, C, H = Pairs> {
    sink: &'a Sink<'s>,
    /// URL mode: an accept is consent and carries no content; any content is skipped unread.
    consent: bool,
    hold: H,
    marker: PhantomData<fn() -> C>,
}

impl<'a, 's, C> Envelope<'a, 's, C> {
    pub(crate) fn new(sink: &'a Sink<'s>) -> Self {
        Envelope {
            sink,
            consent: false,
            hold: Pairs,
            marker: PhantomData,
        }
    }
}

impl<'a, 's, C, H> Envelope<'a, 's, C, H> {
    /// The same envelope, holding early content with `hold`.
    pub(crate) fn holding<G>(self, hold: G) -> Envelope<'a, 's, C, G> {
        Envelope {
            sink: self.sink,
            consent: self.consent,
            hold,
            marker: PhantomData,
        }
    }
}

impl<'a, 's, C> Envelope<'a, 's, C> {
    /// The same envelope, leaving its content unread, and the sink the content's own read
    /// records into.
    pub(crate) fn skipping(self) -> (Envelope<'a, 's, Skipped>, &'a Sink<'s>) {
        let envelope = Envelope {
            sink: self.sink,
            consent: self.consent,
            hold: Pairs,
            marker: PhantomData,
        };
        (envelope, self.sink)
    }
}

impl<'a, 's> Envelope<'a, 's, Report> {
    /// Reads a URL-mode reply: only the action matters, and the reply is read as any JSON so
    /// a single pass names whatever is wrong with it.
    pub(crate) fn consent(sink: &'a Sink<'s>) -> Self {
        Envelope {
            sink,
            consent: true,
            hold: Pairs,
            marker: PhantomData,
        }
    }
}

impl<'de, C: ReadContent, H: Hold<'de>> DeserializeSeed<'de> for Envelope<'_, '_, C, H> {
    type Value = ElicitResult<C>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ElicitResult<C>, D::Error> {
        if C::ANY {
            d.deserialize_any(self)
        } else {
            d.deserialize_map(self)
        }
    }
}

impl<C, H> Envelope<'_, '_, C, H> {
    fn refuse<E: de::Error>(&self, rule: Rule, received: Option<String>) -> E {
        self.sink.push(Location::Envelope, rule, received);
        stop()
    }

    fn not_object<E: de::Error>(&self, received: String) -> E {
        self.refuse(
            Rule::Json("a reply must be a JSON object".into()),
            Some(received),
        )
    }
}

impl<'de, C: ReadContent, H: Hold<'de>> Visitor<'de> for Envelope<'_, '_, C, H> {
    type Value = ElicitResult<C>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ElicitResult object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ElicitResult<C>, A::Error> {
        let mut action: Option<ElicitAction> = None;
        let mut content: Option<C> = None;
        let mut early: Option<H::Held> = None;
        let mut content_seen = false;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Action => {
                    if action.is_some() {
                        return Err(self.refuse(Rule::DuplicateKey, Some("\"action\"".into())));
                    }
                    action = Some(map.next_value_seed(ActionSeed(self.sink))?);
                }
                Key::Content => {
                    if content_seen {
                        return Err(self.refuse(Rule::DuplicateKey, Some("\"content\"".into())));
                    }
                    content_seen = true;
                    match action {
                        _ if self.consent => {
                            map.next_value::<IgnoredAny>()?;
                        }
                        Some(ElicitAction::Accept) => {
                            content = map.next_value_seed(Present(ContentSeed::new(self.sink)))?;
                        }
                        Some(_) => {
                            map.next_value::<IgnoredAny>()?;
                        }
                        None => early = Some(self.hold.hold(&mut map)?),
                    }
                }
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        match action {
            None => Err(self.refuse(Rule::ActionMissing, None)),
            Some(ElicitAction::Decline) => Ok(ElicitResult::Decline),
            Some(ElicitAction::Cancel) => Ok(ElicitResult::Cancel),
            Some(ElicitAction::Accept) => {
                let content = match content {
                    Some(content) => content,
                    // Content that came before the action; `null` or no content reads as `{}`.
                    None => self
                        .hold
                        .read(early, ContentSeed::new(self.sink))
                        .map_err(de::Error::custom)?,
                };
                Ok(ElicitResult::Accept(content))
            }
        }
    }

    refuse_others!(not_object: bool i64 u64 f64 str unit seq);
}

/// The envelope's keys; any other key (`_meta` among them) is skipped.
#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Key {
    Action,
    Content,
    #[serde(other)]
    Other,
}

/// Reads `action`, which must be exactly one of the three lowercase words.
struct ActionSeed<'a, 's>(&'a Sink<'s>);

impl<'de> DeserializeSeed<'de> for ActionSeed<'_, '_> {
    type Value = ElicitAction;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ElicitAction, D::Error> {
        d.deserialize_any(self)
    }
}

impl ActionSeed<'_, '_> {
    fn invalid<E: de::Error>(&self, received: String) -> E {
        self.0
            .push(Location::Envelope, Rule::ActionInvalid, Some(received));
        stop()
    }
}

impl<'de> Visitor<'de> for ActionSeed<'_, '_> {
    type Value = ElicitAction;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"accept\", \"decline\" or \"cancel\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ElicitAction, E> {
        ElicitAction::from_wire(v)
            .ok_or_else(|| self.invalid(serde_json::to_string(v).unwrap_or_default()))
    }

    refuse_others!(invalid: bool i64 u64 f64 unit seq map);
}

/// Reads a value that may be `null`, which is `None`.
struct Present<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Present<S> {
    type Value = Option<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Present<S> {
    type Value = Option<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the content of an accept")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(d).map(Some)
    }
}
