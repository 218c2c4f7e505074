//! The fast pass over reply text: one forward scan of the common shape of an accept, straight
//! into the target, through the same rules ([`Checked`]) as every other pass.
//!
//! It reads `{"action":"accept","content":{..}}` (the two keys in either order) whose keys and
//! strings hold no escape or control character, whose content values are strings, numbers,
//! booleans or arrays of them, and whose content keys each name a property once. Anything else
//! (another action, another key, an escape, `null`, an object value, an unknown or repeated
//! key, a missing required property, a broken rule, an error from the target) makes it give up
//! at once, and the serde_json passes of [`super::run`] read the reply from the start. So it
//! decides nothing on its own: every reply it accepts is one those passes accept, read into the
//! same value, and every other reply gets their answer and their error.
//!
//! Numbers with a fraction or an exponent are parsed by serde_json itself, so a float reaches
//! the target as the same `f64` on both paths.

use std::fmt;

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::adapter::{Checked, ReadContent};
use super::check::Target;
use super::{BitSet, Sink};
use crate::limits::Limits;
use crate::schema::RequestedSchema;

/// Why the fast pass stopped: it never says more, as the serde_json passes read the reply again
/// and give the error.
#[derive(Debug)]
pub(crate) struct GiveUp;

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the reply needs the full parse")
    }
}

impl std::error::Error for GiveUp {}

impl de::Error for GiveUp {
    fn custom<T: fmt::Display>(_: T) -> Self {
        GiveUp
    }
}

type Fast<T> = Result<T, GiveUp>;

/// Reads an accept from `json` into `C`, or `None` where the serde_json passes must read it.
pub(crate) fn accept<C: ReadContent>(
    schema: &RequestedSchema,
    json: &str,
    limits: &Limits,
) -> Option<C> {
    let sink = Sink::with_limits(schema, limits);
    let mut reader = Reader { text: json, pos: 0 };
    let content = reply::<C>(&mut reader, &sink).ok()?;
    sink.is_empty().then_some(content)
}

/// The envelope: exactly `action` (which must be `"accept"`) and `content`, in either order.
fn reply<C: ReadContent>(r: &mut Reader<'_>, sink: &Sink<'_>) -> Fast<C> {
    r.expect(b'{')?;
    let mut accepted = false;
    let mut content = None;
    for first in [true, false] {
        if !first {
            r.expect(b',')?;
        }
        let key = r.string()?;
        r.expect(b':')?;
        match key {
            "action" if !accepted => {
                if r.string()? != "accept" {
                    return Err(GiveUp);
                }
                accepted = true;
            }
            "content" if content.is_none() => {
                content = Some(C::fast(sink, Object { r: &mut *r, sink })?);
            }
            _ => return Err(GiveUp),
        }
    }
    r.expect(b'}')?;
    if r.peek().is_some() {
        return Err(GiveUp);
    }
    content.ok_or(GiveUp)
}

/// Reply text and how far it has been read.
struct Reader<'de> {
    text: &'de str,
    pos: usize,
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
            if !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
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
            Err(GiveUp)
        }
    }

    /// Reads a string with no escape and no control character, borrowed from the text.
    #[inline]
    fn string(&mut self) -> Fast<&'de str> {
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
        if bytes.get(end) != Some(&b'"') {
            return Err(GiveUp);
        }
        self.pos = end + 1;
        self.text.get(start..end).ok_or(GiveUp)
    }

    /// Reads `word` (`true`, `false`), its first byte already seen.
    fn literal(&mut self, word: &[u8]) -> Fast<()> {
        let end = self.pos + word.len();
        if self.text.as_bytes().get(self.pos..end) == Some(word) {
            self.pos = end;
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// Reads a number and hands it to `visitor` as serde_json does: an integer as `u64` or
    /// `i64`, anything with a fraction or an exponent as an `f64`. `single` is a request for an
    /// `f32`, which serde_json may parse at that precision.
    fn number<V: Visitor<'de>>(&mut self, visitor: V, single: bool) -> Fast<V::Value> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let negative = bytes.get(start) == Some(&b'-');
        let first = start + usize::from(negative);
        let (mut n, mut i) = (0u64, first);
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(b - b'0')))
                .ok_or(GiveUp)?;
            i += 1;
        }
        // JSON has no empty integer part and no leading zero.
        if i == first || (bytes.get(first) == Some(&b'0') && i > first + 1) {
            return Err(GiveUp);
        }
        if !matches!(bytes.get(i), Some(b'.' | b'e' | b'E')) {
            self.pos = i;
            return match (negative, n) {
                (false, n) => visitor.visit_u64(n),
                // serde_json reads `-0` as a float, and what does not fit an `i64` too.
                (true, 0) => Err(GiveUp),
                (true, n) if n <= 1 << 63 => visitor.visit_i64((n as i64).wrapping_neg()),
                (true, _) => Err(GiveUp),
            };
        }
        let mut scale = 0;
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
                n = n.saturating_mul(10).saturating_add(u64::from(b - b'0'));
                scale += 1;
                i += 1;
            }
        }
        // A decimal of at most 15 digits is exact as an `f64`, as is a power of ten up to
        // 10^22, so one division is correctly rounded: the value serde_json computes, with or
        // without its `float_roundtrip` feature. Anything else is parsed by serde_json.
        let short = scale > 0 && i - first <= 16 && !single;
        if short && !matches!(bytes.get(i), Some(b'e' | b'E')) {
            self.pos = i;
            let magnitude = n as f64 / POW10[scale];
            return visitor.visit_f64(if negative { -magnitude } else { magnitude });
        }
        while matches!(
            bytes.get(i),
            Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
        ) {
            i += 1;
        }
        let token = self.text.get(start..i).ok_or(GiveUp)?;
        self.pos = i;
        let mut de = serde_json::Deserializer::from_str(token);
        let value = if single {
            de.deserialize_f32(visitor)
        } else {
            de.deserialize_f64(visitor)
        };
        value.and_then(|v| de.end().map(|()| v)).map_err(|_| GiveUp)
    }
}

/// The powers of ten an `f64` holds exactly.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// The content object: any request of the target reads it as a map of [`Fields`].
pub(crate) struct Object<'r, 'de, 'a, 's> {
    r: &'r mut Reader<'de>,
    sink: &'a Sink<'s>,
}

impl<'de> Deserializer<'de> for Object<'_, 'de, '_, '_> {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        self.r.expect(b'{')?;
        let sink = self.sink;
        let mut fields = Fields {
            r: self.r,
            sink,
            seen: BitSet::new(sink.schema.properties.len()),
            previous: None,
            found: None,
            state: State::First,
        };
        let value = visitor.visit_map(&mut fields)?;
        match fields.state {
            State::Ended => Ok(value),
            _ => Err(GiveUp),
        }
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
    /// The property whose value comes next.
    found: Option<usize>,
    state: State,
}

impl Fields<'_, '_, '_, '_> {
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
        if all { Ok(()) } else { Err(GiveUp) }
    }
}

impl<'de> MapAccess<'de> for Fields<'_, 'de, '_, '_> {
    type Error = GiveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Fast<Option<K::Value>> {
        match (self.state, self.r.peek()) {
            (State::Ended, _) => return Err(GiveUp),
            (_, Some(b'}')) => {
                self.r.pos += 1;
                self.end()?;
                return Ok(None);
            }
            (State::First, _) => self.state = State::Rest,
            (State::Rest, Some(b',')) => self.r.pos += 1,
            (State::Rest, _) => return Err(GiveUp),
        }
        let key = self.r.string()?;
        let schema = self.sink.schema;
        let i = match schema.guess_after(key, self.previous) {
            Some(i) => i,
            None => schema.learn_after(key, self.previous).ok_or(GiveUp)?,
        };
        if self.seen.insert(i) {
            return Err(GiveUp);
        }
        self.previous = Some(i);
        self.found = Some(i);
        self.sink.set_current(Some(i));
        self.r.expect(b':')?;
        seed.deserialize(BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Fast<T::Value> {
        let i = self.found.take().ok_or(GiveUp)?;
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
        match self.r.peek().ok_or(GiveUp)? {
            b'"' => visitor.visit_borrowed_str(self.r.string()?),
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
                    _ => Err(GiveUp),
                }
            }
            // `null`, objects and nested arrays are never content values the rules accept.
            _ => Err(GiveUp),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        match self.r.peek() {
            Some(b't' | b'f') => self.deserialize_any(visitor),
            _ => Err(GiveUp),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        visitor.visit_borrowed_str(self.r.string()?)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        match self.r.peek() {
            Some(b'-' | b'0'..=b'9') => self.r.number(visitor, true),
            _ => Err(GiveUp),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Fast<V::Value> {
        self.deserialize_str(visitor)
    }

    forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f64 char
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
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
            (State::Ended, _) => return Err(GiveUp),
            (_, Some(b']')) => {
                self.r.pos += 1;
                self.state = State::Ended;
                return Ok(None);
            }
            (State::First, _) => self.state = State::Rest,
            (State::Rest, Some(b',')) => self.r.pos += 1,
            (State::Rest, _) => return Err(GiveUp),
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
