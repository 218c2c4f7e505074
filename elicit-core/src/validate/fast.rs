//! The fast pass over reply text: one forward scan of the reply, straight into the target,
//! through the same rules ([`Checked`]) as every other pass.
//!
//! It reads an accept whose `action` comes before its `content` (any other keys of the envelope
//! skipped), and a decline or a cancel (their content skipped unread). Content keys are matched
//! to their properties as they are read; values are handed to the target as it asks for them.
//! Strings and keys without escapes are borrowed from the text, those with escapes are
//! unescaped by serde_json; integers and short decimals are read here (an `f32` to the value
//! serde_json gives it), every other number by serde_json asked the way the target asked; a
//! value under a key the form does not name is read by serde_json whole. Content that comes
//! before the action is skipped, then read again once the action is known.
//!
//! It gives up on anything else: absent or `null` content, content before the action with a key
//! the form does not name, broken JSON, a broken rule, or an error from the target. Then
//! [`super::run`] runs the report pass, which names every violation; a reply with none is
//! parsed into a `serde_json::Value` and its content, written out again as plain text, comes
//! back here ([`read_value_with`]). So each form has one reader compiled for text. The tests and a
//! fuzz target hold the whole parse to the reference (serde_json straight into the target
//! through the same rules): the same verdict, the same value and the same errors.

use std::borrow::Cow;
use std::fmt;

#[cfg(not(debug_assertions))]
use serde::de::value::U64Deserializer;
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::Value;

use super::adapter::Checked;
#[cfg(feature = "testing")]
use super::adapter::ReadContent;
use super::check::Target;
use super::{BitSet, Sink};
use crate::error::{Rule, Violation};
use crate::limits::Limits;
use crate::model::RequestedSchema;
use crate::result::ElicitAction;
#[cfg(feature = "testing")]
use crate::result::ElicitResult;

/// Why the fast pass stopped: a shape it does not read, broken JSON or a broken rule (the full
/// parse reads the reply and says what is wrong), or a value the target refused. One word, as
/// it rides in every result.
#[derive(Debug)]
pub(crate) struct GiveUp(Option<Box<Refusal>>);

/// What the target, or serde_json reading a number for it, said of a value the rules allow.
#[derive(Debug)]
struct Refusal {
    message: String,
    syntax: bool,
    /// Where in the reply, if not where the pass stopped.
    at: Option<usize>,
}

impl GiveUp {
    pub(crate) const SHAPE: GiveUp = GiveUp(None);

    /// serde_json's error about a value read on its own from `read`, the text from `start` in
    /// the reply: its position is moved to the reply's.
    fn json(e: &serde_json::Error, read: &[u8], start: usize) -> Self {
        let message = e.to_string();
        let at = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&at).unwrap_or(&message).to_owned();
        // The byte at that line and column of what serde_json read, as an offset in the reply.
        let offset = match e.line() {
            0 => None,
            1 => Some(e.column()),
            line => read
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .nth(line - 2)
                .map(|(i, _)| i + 1 + e.column()),
        };
        let at = offset.map(|offset| start + offset);
        GiveUp(Some(Box::new(Refusal {
            message,
            syntax: e.is_syntax() || e.is_eof(),
            at,
        })))
    }
}

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("the reply needs the full parse"),
            Some(refusal) => f.write_str(&refusal.message),
        }
    }
}

impl std::error::Error for GiveUp {}

impl de::Error for GiveUp {
    #[cold]
    fn custom<T: fmt::Display>(message: T) -> Self {
        GiveUp(Some(Box::new(Refusal {
            message: message.to_string(),
            syntax: false,
            at: None,
        })))
    }
}

type Fast<T> = Result<T, GiveUp>;

/// Why the fast pass did not read a reply.
pub(crate) enum Failure {
    /// A shape it does not read, broken JSON or a broken rule: the full parse reads the reply.
    Shape,
    /// The target refused a value: the error, unless the report pass finds violations.
    Refused(Violation),
}

/// What reads the content of an accept into its target: the one generic step of the pass,
/// behind one indirect call, so that the pass around it is compiled once for every form.
pub(crate) type ReadInto<'f> =
    dyn for<'r, 'de, 'a, 's> FnMut(&'a Sink<'s>, Object<'r, 'de, 'a, 's>) -> Fast<()> + 'f;

/// Reads a reply from `json`: its outcome, or why the full parse must decide it.
#[cfg(feature = "testing")]
pub(crate) fn read<C: ReadContent>(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
) -> Result<ElicitResult<C>, Failure> {
    let mut content = None;
    let action = read_with(schema, json, limits, &mut |sink, object| {
        content = Some(C::fast(sink, object)?);
        Ok(())
    })?;
    ElicitResult::of(action, content).ok_or(Failure::Shape)
}

/// Reads a reply from `json`, the content of an accept through `content`: the action, or why
/// the full parse must decide the reply. An accept's action is returned only once `content` has
/// read its content. Not generic; inlined into each entry point's reader in an optimized build.
#[inline]
pub(crate) fn read_with(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
    content: &mut ReadInto<'_>,
) -> Result<ElicitAction, Failure> {
    let sink = Sink::with_limits(schema, limits);
    let mut reader = Reader::new(json, 0, Source::Reply);
    match envelope(&mut reader, &sink, content) {
        Ok(_) if !sink.is_empty() => Err(Failure::Shape),
        Ok(action) => Ok(action),
        Err(give_up) => Err(failure(give_up, &sink, &reader)),
    }
}

/// Reads the content of a reply held as a `serde_json::Value` in which the report pass found
/// nothing wrong: the content, written out again as text, through this pass and `content`. So
/// a form has one reader for text, not a second for the `Value`. What a `Value` holds reads as
/// it would from the `Value`: an `f32` from the `f64`, keys in the map's order, and an error
/// from the target names no position. Not generic.
#[cold]
#[inline(never)]
pub(crate) fn read_value_with(
    schema: &RequestedSchema,
    value: &Value,
    limits: &Limits,
    content: &mut ReadInto<'_>,
) -> Result<ElicitAction, Failure> {
    let text = match value_action(value)? {
        ElicitAction::Accept => content_text(value)?,
        other => return Ok(other),
    };
    let sink = Sink::with_limits(schema, limits);
    let mut reader = Reader::new(&text, 0, Source::Value);
    match content(&sink, Object::new(&mut reader, &sink)) {
        Ok(()) if sink.is_empty() && reader.peek().is_none() => Ok(ElicitAction::Accept),
        Ok(()) => Err(Failure::Shape),
        Err(give_up) => Err(failure(give_up, &sink, &reader)),
    }
}

/// The action of a reply held as a `Value`. Not generic.
fn value_action(value: &Value) -> Result<ElicitAction, Failure> {
    value
        .get("action")
        .and_then(Value::as_str)
        .and_then(ElicitAction::from_wire)
        .ok_or(Failure::Shape)
}

/// The content of an accept held as a `Value`, as text: `{}` where it is absent or `null`. Not
/// generic.
fn content_text(value: &Value) -> Result<String, Failure> {
    match value.get("content") {
        None | Some(Value::Null) => Ok("{}".to_owned()),
        Some(content) => serde_json::to_string(content).map_err(|_| Failure::Shape),
    }
}

/// Why the pass gave up, with the position in the reply as serde_json gives it (none for text
/// written out from a `Value`). Not generic.
fn failure(give_up: GiveUp, sink: &Sink<'_>, reader: &Reader<'_>) -> Failure {
    match give_up.0 {
        Some(refusal) if sink.is_empty() => {
            let Refusal {
                mut message,
                syntax,
                at,
            } = *refusal;
            if reader.from != Source::Value {
                let before = reader
                    .text
                    .as_bytes()
                    .get(..at.unwrap_or(reader.pos))
                    .unwrap_or_default();
                let line_start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let line = 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count();
                let column = before.len() - line_start;
                message = format!("{message} at line {line} column {column}");
            }
            let rule = if syntax {
                Rule::Json(message)
            } else {
                Rule::Deserialize(message)
            };
            Failure::Refused(Violation::new(sink.current_location(), rule, None))
        }
        _ => Failure::Shape,
    }
}

/// The envelope, with `content` reading the content of an accept. Content that comes before
/// the action is skipped and read again once the action is known ([`read_again`]); other keys,
/// and the content of a decline or a cancel, are skipped as serde_json skips them. An accept
/// with no content is left to the full parse, which reads it as `{}`. Not generic.
fn envelope<'de>(
    r: &mut Reader<'de>,
    sink: &Sink<'_>,
    content: &mut ReadInto<'_>,
) -> Fast<ElicitAction> {
    r.expect(b'{')?;
    let mut action = None;
    let mut content_seen = false;
    // Where content that came before the action starts.
    let mut early = None;
    loop {
        let key = r.key()?;
        r.expect(b':')?;
        match &*key {
            "action" if action.is_none() => {
                action = Some(ElicitAction::from_wire(&r.key()?).ok_or(GiveUp::SHAPE)?);
            }
            "content" if !content_seen => {
                content_seen = true;
                match action {
                    Some(ElicitAction::Accept) => content(sink, Object::new(r, sink))?,
                    Some(_) => {
                        r.skip()?;
                    }
                    None => early = Some(r.skip()?),
                }
            }
            "action" | "content" => return Err(GiveUp::SHAPE),
            _ => {
                r.skip()?;
            }
        }
        match r.peek() {
            Some(b',') => r.pos += 1,
            Some(b'}') => break,
            _ => return Err(GiveUp::SHAPE),
        }
    }
    r.pos += 1;
    match (r.peek(), action, early) {
        (None, Some(ElicitAction::Accept), Some(pos)) => read_again(r.text, pos, sink, content),
        (None, Some(ElicitAction::Accept), None) if !content_seen => Err(GiveUp::SHAPE),
        // The full parse refuses a decline or a cancel whose content, coming first, is not a
        // value serde_json can hold (a number out of range, say); skipped, it was not checked.
        (None, Some(action), None) => Ok(action),
        _ => Err(GiveUp::SHAPE),
    }
}

/// Reads content that came before the action of an accept, from `pos`. The full parse holds
/// such content as a `serde_json::Value` and reads it from there once the action is known.
/// Read again from the text, it reads the same, but for what a value does not keep: an `f32` is
/// read from the `f64` the value holds (so it is here too), keys the form does not name may come
/// in another order, and an error from the target names no position (so those are left to the
/// full parse).
#[cold]
#[inline(never)]
fn read_again(
    text: &str,
    pos: usize,
    sink: &Sink<'_>,
    content: &mut ReadInto<'_>,
) -> Fast<ElicitAction> {
    let mut again = Reader::new(text, pos, Source::Again);
    content(sink, Object::new(&mut again, sink)).map_err(|_| GiveUp::SHAPE)?;
    Ok(ElicitAction::Accept)
}

/// A string as scanned: plain text borrowed from the reply, or one that holds an escape.
enum Scan<'de> {
    Plain(&'de str),
    /// Its text starts at `start` and holds an escape at `escape`.
    Escaped {
        start: usize,
        escape: usize,
    },
}

/// Reply text and how far it has been read.
struct Reader<'de> {
    text: &'de str,
    pos: usize,
    from: Source,
}

impl<'de> Reader<'de> {
    /// A reader of `text` from `pos`.
    fn new(text: &'de str, pos: usize, from: Source) -> Self {
        Reader { text, pos, from }
    }
}

/// What a [`Reader`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The reply, in order.
    Reply,
    /// Content that came before the action, read again (see [`envelope`]): a key the form does
    /// not name is left to the full parse, which keeps such keys in a `Value`'s order.
    Again,
    /// Content written out from a `serde_json::Value` ([`read_value_with`]): an error names no
    /// position, as the text is not the reply.
    Value,
}

impl Reader<'_> {
    /// Whether numbers are read as a `serde_json::Value` holds them: an `f32` from the `f64`.
    fn wide(&self) -> bool {
        self.from != Source::Reply
    }
}

/// Bytes that end the plain run of a string: the closing quote, an escape, a control character.
static STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The [`STOP`] bytes among the eight bytes of `w` (read little-endian): the high bit of the
/// first one is the lowest set bit, and no bit is set before it. (A borrow can set bits past a
/// stop byte, never before one.)
fn stops(w: u64) -> u64 {
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let quote = zero(w ^ (ONES * u64::from(b'"')));
    let escape = zero(w ^ (ONES * u64::from(b'\\')));
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    quote | escape | control
}

impl<'de> Reader<'de> {
    /// Skips whitespace and returns the next byte, unread.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            // Every byte JSON allows between tokens is at most a space: one comparison for
            // the common case of no whitespace at all.
            if b > b' ' || !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    /// Reads `want` after any whitespace.
    #[inline]
    fn expect(&mut self, want: u8) -> Fast<()> {
        if self.peek() == Some(want) {
            self.pos += 1;
            Ok(())
        } else {
            Err(GiveUp::SHAPE)
        }
    }

    /// Reads a key or a word: borrowed from the text where it holds no escape, otherwise
    /// unescaped by serde_json itself.
    #[inline(always)]
    fn key(&mut self) -> Fast<Cow<'de, str>> {
        match self.scan()? {
            Scan::Plain(s) => Ok(Cow::Borrowed(s)),
            Scan::Escaped { start, escape } => self.escaped(start, escape).map(Cow::Owned),
        }
    }

    /// Reads a string into `visitor`: borrowed from the text where it holds no escape,
    /// otherwise unescaped by serde_json itself.
    #[inline]
    fn string<V: Visitor<'de>>(&mut self, visitor: V) -> Fast<V::Value> {
        match self.scan()? {
            Scan::Plain(s) => visitor.visit_borrowed_str(s),
            Scan::Escaped { start, escape } => self.unescaped(start, escape, visitor),
        }
    }

    /// Reads the rest of a string that holds an escape, unescaped, into `visitor`.
    #[cold]
    #[inline(never)]
    fn unescaped<V: Visitor<'de>>(
        &mut self,
        start: usize,
        escape: usize,
        visitor: V,
    ) -> Fast<V::Value> {
        visitor.visit_str(&self.escaped(start, escape)?)
    }

    /// Scans a string up to its closing quote, or to its first escape.
    #[inline]
    fn scan(&mut self) -> Fast<Scan<'de>> {
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut end = start;
        // Eight bytes at a time, then byte by byte for the last few.
        while let Some(chunk) = bytes.get(end..).and_then(<[u8]>::first_chunk::<8>) {
            let found = stops(u64::from_le_bytes(*chunk));
            if found != 0 {
                end += (found.trailing_zeros() / 8) as usize;
                break;
            }
            end += 8;
        }
        while bytes.get(end).is_some_and(|&b| !STOP[usize::from(b)]) {
            end += 1;
        }
        match bytes.get(end) {
            Some(b'"') => {
                self.pos = end + 1;
                between(self.text, start, end)
                    .map(Scan::Plain)
                    .ok_or(GiveUp::SHAPE)
            }
            Some(b'\\') => Ok(Scan::Escaped { start, escape: end }),
            _ => Err(GiveUp::SHAPE),
        }
    }

    /// Reads the rest of a string that holds an escape at `escape`, and unescapes the whole of
    /// it, from the quote before `start`, with serde_json.
    #[cold]
    #[inline(never)]
    fn escaped(&mut self, start: usize, escape: usize) -> Fast<String> {
        let bytes = self.text.as_bytes();
        let mut i = escape;
        loop {
            match bytes.get(i) {
                Some(b'\\') => i += 2,
                Some(b'"') => break,
                Some(_) => i += 1,
                None => return Err(GiveUp::SHAPE),
            }
        }
        let token = self.text.get(start - 1..=i).ok_or(GiveUp::SHAPE)?;
        self.pos = i + 1;
        serde_json::from_str(token).map_err(|_| GiveUp::SHAPE)
    }

    /// Reads a value no rule governs (that of a key the form does not name) into `seed`,
    /// through serde_json itself.
    #[cold]
    #[inline(never)]
    fn other<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Fast<T::Value> {
        let start = self.skip()?;
        let value = self.text.get(start..self.pos).ok_or(GiveUp::SHAPE)?;
        // serde_json stops at 128 levels of nesting counted from the top of what it reads: read
        // alone, this value would have two more levels to spend than it has in the reply (the
        // envelope and the content). Up to 125 levels that changes nothing; a deeper value is
        // read inside two arrays, which spend those two levels as the reply does.
        if nesting(value.as_bytes()) <= 125 {
            let mut de = serde_json::Deserializer::from_str(value);
            let read = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
            return read.map_err(|e| GiveUp::json(&e, value.as_bytes(), start));
        }
        deep(value, seed)
    }

    /// Skips one value, of any type and depth, as serde_json skips a value no one reads, and
    /// says where it started.
    #[cold]
    #[inline(never)]
    fn skip(&mut self) -> Fast<usize> {
        self.peek();
        let start = self.pos;
        let rest = self.text.get(start..).ok_or(GiveUp::SHAPE)?;
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<IgnoredAny>();
        match values.next() {
            Some(Ok(_)) => {
                self.pos += values.byte_offset();
                Ok(start)
            }
            _ => Err(GiveUp::SHAPE),
        }
    }

    /// Reads `word` (`true`, `false`), its first byte already seen.
    fn literal(&mut self, word: &[u8]) -> Fast<()> {
        let end = self.pos + word.len();
        if self.text.as_bytes().get(self.pos..end) == Some(word) {
            self.pos = end;
            Ok(())
        } else {
            Err(GiveUp::SHAPE)
        }
    }

    /// Reads a number and hands it to `visitor` as serde_json does: an integer as `u64` or
    /// `i64`, anything with a fraction or an exponent as an `f64`. `single` is a request for an
    /// `f32`, which serde_json may parse at that precision. Integers and short decimals are read
    /// here; any other number (and anything that is not quite a number) is read by serde_json,
    /// asked the same way. Only the hand-over is generic: the scan is compiled once.
    #[inline]
    fn number<V: Visitor<'de>>(&mut self, visitor: V, single: bool) -> Fast<V::Value> {
        let start = self.pos;
        match self.scan_number(single) {
            Number::U(n) => visitor.visit_u64(n),
            Number::I(n) => visitor.visit_i64(n),
            Number::F(x) => visitor.visit_f64(x),
            Number::Other(end) => self.delegate(start, end, visitor, single),
        }
    }

    /// Scans the number at the reader's position: its value where it is an integer or a short
    /// decimal, else where it ends, for serde_json to read.
    #[inline(never)]
    fn scan_number(&mut self, single: bool) -> Number {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let negative = bytes.get(start) == Some(&b'-');
        let first = start + usize::from(negative);
        // Up to 19 digits always fit a `u64`.
        let (mut n, mut i) = digits(bytes, first, first + 19, 0);
        // JSON has no empty integer part and no leading zero.
        let whole = i - first;
        let plain = whole == 1 || (whole > 1 && bytes[first] != b'0');
        match bytes.get(i) {
            Some(b'0'..=b'9' | b'e' | b'E' | b'+' | b'-') => {}
            Some(b'.') if plain => {
                // At most 15 digits are exact as an `f64`, as is a power of ten up to 10^15,
                // so one division is correctly rounded: the value serde_json computes, with or
                // without its `float_roundtrip` feature. For an `f32` the same holds of 7
                // digits and 10^6 in `f32` arithmetic: the value serde_json computes with
                // `float_roundtrip`, which this crate turns on (an `f32` rounded once, handed
                // on as an `f64`). The limit counts the decimal point.
                let fraction = i + 1;
                let limit = first + if single { 8 } else { 16 };
                (n, i) = digits(bytes, fraction, limit, n);
                let scale = i - fraction;
                let more = matches!(
                    bytes.get(i),
                    Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                );
                if scale > 0 && !more {
                    self.pos = i;
                    let magnitude = if single {
                        f64::from(n as f32 / POW10_F32[scale])
                    } else {
                        n as f64 / POW10[scale]
                    };
                    return Number::F(if negative { -magnitude } else { magnitude });
                }
            }
            _ if plain => match (negative, n) {
                (false, n) => {
                    self.pos = i;
                    return Number::U(n);
                }
                // serde_json reads `-0`, and what does not fit an `i64`, as floats.
                (true, n @ 1..=0x8000_0000_0000_0000) => {
                    self.pos = i;
                    return Number::I((n as i64).wrapping_neg());
                }
                _ => {}
            },
            _ => {}
        }
        while matches!(
            bytes.get(i),
            Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
        ) {
            i += 1;
        }
        Number::Other(i)
    }

    /// Reads the number at `start..end` with serde_json, asked as the target asked. Out of
    /// line: it is rare, and inlined it would grow every number reader of every form.
    #[cold]
    #[inline(never)]
    fn delegate<V: Visitor<'de>>(
        &mut self,
        start: usize,
        end: usize,
        visitor: V,
        single: bool,
    ) -> Fast<V::Value> {
        let token = self.text.get(start..end).ok_or(GiveUp::SHAPE)?;
        self.pos = end;
        let mut de = serde_json::Deserializer::from_str(token);
        let value = if single {
            de.deserialize_f32(visitor)
        } else {
            de.deserialize_any(visitor)
        };
        value
            .and_then(|v| de.end().map(|()| v))
            .map_err(|e| GiveUp::json(&e, token.as_bytes(), start))
    }
}

/// A number as [`Reader::scan_number`] read it.
enum Number {
    U(u64),
    I(i64),
    F(f64),
    /// One the scan leaves to serde_json, ending here.
    Other(usize),
}

/// `text[start..end]`, if both ends are character boundaries: `str::get`, written so that it
/// is inlined into the string scan (`str::get` was called out of line, about 1% of a parse).
#[inline(always)]
fn between(text: &str, start: usize, end: usize) -> Option<&str> {
    let (head, _) = text.split_at_checked(end)?;
    head.split_at_checked(start).map(|(_, s)| s)
}

/// Reads the decimal digits from `i` onto `n`, up to `end`: the value and where they stop.
#[inline(always)]
fn digits(bytes: &[u8], mut i: usize, end: usize, mut n: u64) -> (u64, usize) {
    while i < end
        && let Some(&b) = bytes.get(i)
        && b.is_ascii_digit()
    {
        n = n * 10 + u64::from(b - b'0');
        i += 1;
    }
    (n, i)
}

/// The powers of ten an `f64` holds exactly.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// The powers of ten a short decimal read as an `f32` divides by, each exact in an `f32`.
const POW10_F32: [f32; 7] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6];

/// The content object: any request of the target reads it as a map of [`Fields`].
pub(crate) struct Object<'r, 'de, 'a, 's> {
    r: &'r mut Reader<'de>,
    sink: &'a Sink<'s>,
    /// The target takes a key that names a property as the property's index
    /// ([`RequestedSchema::index_keys_for`](crate::model::RequestedSchema::index_keys_for)).
    index_keys: bool,
}

impl<'r, 'de, 'a, 's> Object<'r, 'de, 'a, 's> {
    /// The content object at `r`, for a target that takes every key as text.
    fn new(r: &'r mut Reader<'de>, sink: &'a Sink<'s>) -> Self {
        Object {
            r,
            sink,
            index_keys: false,
        }
    }

    /// The same object, for a target that takes a key naming a property as its index, or not.
    pub(crate) fn with_index_keys(self, index_keys: bool) -> Self {
        Object { index_keys, ..self }
    }

    /// Past the opening brace, the object's properties. Not generic: a debug build shares one
    /// copy among all forms; an optimized build inlines it into each.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fields(self) -> Fast<Fields<'r, 'de, 'a, 's>> {
        self.r.expect(b'{')?;
        let sink = self.sink;
        Ok(Fields {
            r: self.r,
            sink,
            seen: BitSet::dense(sink.schema.properties.len()),
            previous: None,
            next: Next::Nothing,
            state: State::First,
            escaped: None,
            index_keys: self.index_keys,
        })
    }
}

impl<'de> Deserializer<'de> for Object<'_, 'de, '_, '_> {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        let mut fields = self.fields()?;
        let value = visitor.visit_map(&mut fields)?;
        fields.ended()?;
        Ok(value)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Where a map or an array is between its brackets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    First,
    Rest,
    Ended,
}

/// The properties of the content, each key matched to its property as it is read.
struct Fields<'r, 'de, 'a, 's> {
    r: &'r mut Reader<'de>,
    sink: &'a Sink<'s>,
    seen: BitSet,
    previous: Option<usize>,
    /// Whose value comes next.
    next: Next,
    state: State,
    /// The key just read, unescaped, where it held an escape.
    escaped: Option<String>,
    /// A key that names a property goes to the target as the property's index (never in a
    /// debug build).
    #[cfg_attr(debug_assertions, allow(dead_code))]
    index_keys: bool,
}

/// What the key just read named.
enum Next {
    Property(usize),
    Other,
    Nothing,
}

impl Fields<'_, '_, '_, '_> {
    /// Whether the target read the object to its closing brace, as it must.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ended(&self) -> Fast<()> {
        match self.state {
            State::Ended => Ok(()),
            _ => Err(GiveUp::SHAPE),
        }
    }

    /// Past the closing brace: every required property must have been sent.
    fn end(&mut self) -> Fast<()> {
        self.state = State::Ended;
        self.sink.set_current(None);
        let schema = self.sink.schema;
        let all = match schema.required_mask() {
            Some(mask) => self.seen.covers(mask),
            None => schema
                .properties
                .iter()
                .enumerate()
                .all(|(i, p)| !p.required || self.seen.contains(i)),
        };
        if all { Ok(()) } else { Err(GiveUp::SHAPE) }
    }
}

impl<'de> Fields<'_, 'de, '_, '_> {
    /// Reads the next key and matches it to its property. Not generic, so a debug build shares
    /// one copy among all forms; an optimized build inlines it into each.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key(&mut self) -> Fast<Option<&'de str>> {
        match (self.state, self.r.peek()) {
            (State::Ended, _) => return Err(GiveUp::SHAPE),
            (_, Some(b'}')) => {
                self.r.pos += 1;
                self.end()?;
                return Ok(None);
            }
            (State::First, _) => self.state = State::Rest,
            (State::Rest, Some(b',')) => self.r.pos += 1,
            (State::Rest, _) => return Err(GiveUp::SHAPE),
        }
        let key = match self.r.scan()? {
            Scan::Plain(key) => key,
            Scan::Escaped { start, escape } => return self.escaped_key(start, escape),
        };
        let schema = self.sink.schema;
        let found = match schema.guess_after(key, self.previous) {
            Some(i) => Some(i),
            None => schema.find_after(key, self.previous),
        };
        self.take(found)?;
        Ok(Some(key))
    }

    /// Records the property the key just read names (or that it names none), up to its `:`.
    #[inline(always)]
    fn take(&mut self, found: Option<usize>) -> Fast<()> {
        let schema = self.sink.schema;
        self.next = match found {
            Some(i) => {
                if self.seen.insert(i) {
                    return Err(GiveUp::SHAPE);
                }
                self.previous = Some(i);
                Next::Property(i)
            }
            // A key the form does not name, where the form allows it.
            None if !schema.deny_unknown && self.r.from != Source::Again => Next::Other,
            None => return Err(GiveUp::SHAPE),
        };
        self.sink.set_current(found);
        self.r.expect(b':')
    }

    /// A key that holds an escape (from `start`, its first escape at `escape`): unescaped,
    /// matched, and held aside for [`next_key_seed`](MapAccess::next_key_seed), which the
    /// returned `GiveUp` sends to it. Out of the way of plain keys.
    #[cold]
    #[inline(never)]
    fn escaped_key(&mut self, start: usize, escape: usize) -> Fast<Option<&'de str>> {
        let key = self.r.escaped(start, escape)?;
        let found = self.sink.schema.find_after(&key, self.previous);
        self.take(found)?;
        self.escaped = Some(key);
        Err(GiveUp::SHAPE)
    }
}

impl<'de> MapAccess<'de> for Fields<'_, 'de, '_, '_> {
    type Error = GiveUp;

    // Inlined into each form's reader in an optimized build, as the key matching is: left to
    // the inliner, a form's reader can call them out of line (about 6% of a runtime parse).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Fast<Option<K::Value>> {
        match self.next_key() {
            Ok(Some(key)) => {
                // Only an optimized build hands indexes: a debug build compiles no such reader.
                #[cfg(not(debug_assertions))]
                if let Next::Property(i) = self.next
                    && self.index_keys
                {
                    return seed.deserialize(U64Deserializer::new(i as u64)).map(Some);
                }
                seed.deserialize(BorrowedStrDeserializer::new(key))
                    .map(Some)
            }
            Ok(None) => Ok(None),
            // A key that held an escape, held aside unescaped; or a real stop.
            Err(give_up) => match self.escaped.take() {
                Some(key) => seed.deserialize(StringDeserializer::new(key)).map(Some),
                None => Err(give_up),
            },
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Fast<T::Value> {
        let i = match std::mem::replace(&mut self.next, Next::Nothing) {
            Next::Property(i) => i,
            Next::Other => return self.r.other(seed),
            Next::Nothing => return Err(GiveUp::SHAPE),
        };
        let sink = self.sink;
        seed.deserialize(Checked {
            target: Target::Prop(&sink.schema.properties[i]),
            sink,
            inner: Plain {
                r: &mut *self.r,
                item: false,
            },
        })
    }
}

/// One value, read as the target asks, with no rules of its own: [`Checked`] wraps it in them.
struct Plain<'r, 'de> {
    r: &'r mut Reader<'de>,
    /// An item of an array: content holds no deeper arrays, so this pass never recurses.
    item: bool,
}

impl<'de> Deserializer<'de> for Plain<'_, 'de> {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        match self.r.peek().ok_or(GiveUp::SHAPE)? {
            b'"' => self.r.string(visitor),
            b't' => {
                self.r.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.r.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'-' | b'0'..=b'9' => self.r.number(visitor, false),
            b'[' if !self.item => {
                self.r.pos += 1;
                let mut items = Items {
                    r: &mut *self.r,
                    state: State::First,
                };
                let value = visitor.visit_seq(&mut items)?;
                match items.state {
                    State::Ended => Ok(value),
                    _ => Err(GiveUp::SHAPE),
                }
            }
            // `null`, objects and nested arrays are never content values the rules accept.
            _ => Err(GiveUp::SHAPE),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        match self.r.peek() {
            Some(b't' | b'f') => self.deserialize_any(visitor),
            _ => Err(GiveUp::SHAPE),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        self.r.string(visitor)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        match self.r.peek() {
            // Content read again holds what a `Value` holds: an `f64`.
            Some(b'-' | b'0'..=b'9') => {
                let single = !self.r.wide();
                self.r.number(visitor, single)
            }
            _ => Err(GiveUp::SHAPE),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        match self.r.peek() {
            Some(b'[') => self.deserialize_any(visitor),
            _ => Err(GiveUp::SHAPE),
        }
    }

    plain_numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f64
    }

    forward_to_deserialize_any! {
        i128 u128 char
        bytes byte_buf option unit unit_struct newtype_struct tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Number requests: a number is read, anything else left to the full parse (serde_json refuses
/// it there, as it would here), so each reader holds only the code for numbers.
macro_rules! plain_numbers {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
                match self.r.peek() {
                    Some(b'-' | b'0'..=b'9') => self.r.number(visitor, false),
                    _ => Err(GiveUp::SHAPE),
                }
            }
        )*
    };
}
use plain_numbers;

/// Reads `value` into `seed` as `[[value]]`, so that
/// serde_json meets its depth limit where it would in the reply. serde_json borrows nothing
/// from a reader, so the wrapped text may be a chain of slices.
#[cold]
#[inline(never)]
fn deep<'de, T: DeserializeSeed<'de>>(value: &str, seed: T) -> Fast<T::Value> {
    use std::io::Read;
    let wrapped = b"[[".chain(value.as_bytes()).chain(&b"]]"[..]);
    let mut de = serde_json::Deserializer::from_reader(wrapped);
    let read = Nested { seed, levels: 2 }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    // An error is left to the full parse: read from a reader, serde_json names some positions
    // (that of a number out of range) one byte further on than in the reply's text.
    read.map_err(|_| GiveUp::SHAPE)
}

/// `seed`, applied to the one element of `levels` nested arrays.
struct Nested<T> {
    seed: T,
    levels: u8,
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for Nested<T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::Value, D::Error> {
        match self.levels {
            0 => self.seed.deserialize(deserializer),
            _ => deserializer.deserialize_seq(self),
        }
    }
}

impl<'de, T: DeserializeSeed<'de>> Visitor<'de> for Nested<T> {
    type Value = T::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of one value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T::Value, A::Error> {
        let inner = Nested {
            seed: self.seed,
            levels: self.levels - 1,
        };
        seq.next_element_seed(inner)?
            .ok_or_else(|| de::Error::invalid_length(0, &"an array of one value"))
    }
}

/// How deeply arrays and objects nest in `json`, a well-formed JSON value.
fn nesting(json: &[u8]) -> usize {
    let (mut depth, mut deepest, mut i) = (0usize, 0, 0);
    while let Some(&b) = json.get(i) {
        match b {
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => loop {
                i += 1;
                match json.get(i) {
                    Some(b'\\') => i += 1,
                    Some(b'"') | None => break,
                    Some(_) => {}
                }
            },
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// The items of an array.
struct Items<'r, 'de> {
    r: &'r mut Reader<'de>,
    state: State,
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = GiveUp;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Fast<Option<T::Value>> {
        match (self.state, self.r.peek()) {
            (State::Ended, _) => return Err(GiveUp::SHAPE),
            (_, Some(b']')) => {
                self.r.pos += 1;
                self.state = State::Ended;
                return Ok(None);
            }
            (State::First, _) => self.state = State::Rest,
            (State::Rest, Some(b',')) => self.r.pos += 1,
            (State::Rest, _) => return Err(GiveUp::SHAPE),
        }
        seed.deserialize(Plain {
            r: &mut *self.r,
            item: true,
        })
        .map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the word test says the first stop byte is: `None` for none.
    fn first_stop(word: [u8; 8]) -> Option<usize> {
        let found = stops(u64::from_le_bytes(word));
        (found != 0).then(|| (found.trailing_zeros() / 8) as usize)
    }

    /// What the scan makes of `text` asked for an `f32` (`single`) or anything else.
    fn scan(text: &str, single: bool) -> Number {
        let mut r = Reader {
            text,
            pos: 0,
            from: Source::Reply,
        };
        r.scan_number(single)
    }

    /// A short decimal asked for as an `f32` is read here, to the bit the value serde_json
    /// reads (its `float_roundtrip` parse, rounded once to an `f32`), at every scale and sign,
    /// for every 7-digit significand on a stride and at the ends. (Every significand below
    /// 10^7 at every scale agreed when checked once, outside the test suite: 60 million.)
    #[test]
    fn short_decimals_read_as_f32_are_serde_jsons_f32() {
        let significands = (0..10_000_000u64)
            .step_by(4_999)
            .chain([1, 9, 16_777, 1_677_721, 3_333_333, 9_999_999]);
        for n in significands {
            for scale in 1..=6u32 {
                let unit = 10u64.pow(scale);
                let text = format!("{}.{:0width$}", n / unit, n % unit, width = scale as usize);
                for text in [text.clone(), format!("-{text}")] {
                    let want: f32 = serde_json::from_str(&text).unwrap();
                    let Number::F(got) = scan(&text, true) else {
                        panic!("{text} was left to serde_json");
                    };
                    assert_eq!(
                        (got as f32).to_bits(),
                        want.to_bits(),
                        "{text}: {got} against {want}"
                    );
                    assert_eq!(f64::from(got as f32), got, "{text} is an f32");
                }
            }
        }
    }

    /// Eight digits and more, exponents, and what is not quite a number are left to serde_json
    /// when an `f32` is asked for; an `f64` reads up to 15 digits here.
    #[test]
    fn longer_decimals_asked_as_f32_are_left_to_serde_json() {
        for text in [
            "1234.5678",
            "16777217.5",
            "0.12345678",
            "1.5e3",
            "1.",
            "01.5",
            "1.5.5",
        ] {
            assert!(
                matches!(scan(text, true), Number::Other(_)),
                "{text} was read here"
            );
        }
        assert!(matches!(scan("1234.5678", false), Number::F(x) if x == 1234.5678));
        assert!(matches!(scan("-0.0", true), Number::F(x) if x == 0.0 && x.is_sign_negative()));
    }

    #[test]
    fn the_word_test_finds_every_stop_byte_at_every_position() {
        for at in 0..8 {
            for b in 0..=255u8 {
                let mut word = [b'a'; 8];
                word[at] = b;
                let want = STOP[usize::from(b)].then_some(at);
                assert_eq!(first_stop(word), want, "byte {b:#04x} at {at}");
            }
        }
    }

    #[test]
    fn the_word_test_finds_the_first_stop_byte_whatever_its_neighbours() {
        for (x, y) in [(0, 1), (3, 4), (0, 7), (6, 7), (2, 5)] {
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    let mut word = [b'a'; 8];
                    word[x] = a;
                    word[y] = b;
                    let want = word.iter().position(|&c| STOP[usize::from(c)]);
                    assert_eq!(first_stop(word), want, "{a:#04x} at {x}, {b:#04x} at {y}");
                }
            }
        }
    }
}
