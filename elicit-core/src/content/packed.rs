//! The bytes a [`Content`](super::Content) keeps its values in: one buffer for the whole
//! content, an entry per property that has a value, in form order.
//!
//! An entry is the property's index (a LEB128 varint), a tag byte, then the value:
//!
//! | tag | value |
//! |---|---|
//! | [`NULL`], [`FALSE`], [`TRUE`] | nothing more |
//! | [`UINT`] | the integer, a varint |
//! | [`NEG`] | a negative integer `n` as the varint of `!n` |
//! | [`FLOAT`] | the `f64`, 8 bytes little-endian |
//! | [`STR`] | the length in bytes, a varint, then the UTF-8 text |
//! | [`STRS`] | each item's length plus one, a varint, then its text; a `0` ends the list |
//! | [`OTHER`] | the index of a `serde_json::Value` kept beside the buffer |
//!
//! Every value the rules accept (a string, a number, a boolean, a list of strings) is written
//! in place: 5 values of a typical form take about 40 bytes, where a `serde_json::Value` per
//! value took 32 bytes each plus a heap block per string. [`OTHER`] holds whatever else a
//! deserializer hands over, so any content can be held.

use serde_json::{Number, Value};

use super::value_ref::{Strings, ValueRef};

pub(super) const NULL: u8 = 0;
pub(super) const FALSE: u8 = 1;
pub(super) const TRUE: u8 = 2;
pub(super) const UINT: u8 = 3;
pub(super) const NEG: u8 = 4;
pub(super) const FLOAT: u8 = 5;
pub(super) const STR: u8 = 6;
pub(super) const STRS: u8 = 7;
pub(super) const OTHER: u8 = 8;

/// Bytes written in place before the writer takes a heap block: replies to most forms fit, so
/// the content's one block is allocated once, at its final size.
const INLINE: usize = 384;

/// Writes entries as a reply is read, then hands over the finished buffer.
pub(crate) struct Writer {
    inline: [u8; INLINE],
    len: usize,
    /// The bytes, once they outgrow `inline` (`on_heap`).
    spilled: Vec<u8>,
    on_heap: bool,
    others: Vec<Value>,
    entries: usize,
    /// The index of the last entry begun, and whether every entry so far came in form order.
    last: Option<usize>,
    in_order: bool,
    /// Bit `i` set once property `i` (below 64) has an entry.
    seen: u64,
}

impl Writer {
    pub(crate) fn new() -> Self {
        Writer {
            inline: [0; INLINE],
            len: 0,
            spilled: Vec::new(),
            on_heap: false,
            others: Vec::new(),
            entries: 0,
            last: None,
            in_order: true,
            seen: 0,
        }
    }

    fn bytes(&self) -> &[u8] {
        if self.on_heap {
            &self.spilled
        } else {
            &self.inline[..self.len]
        }
    }

    fn len(&self) -> usize {
        self.bytes().len()
    }

    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        if !self.on_heap {
            if let Some(room) = self.inline.get_mut(self.len..self.len + bytes.len()) {
                room.copy_from_slice(bytes);
                self.len += bytes.len();
                return;
            }
            self.spill(bytes.len());
        }
        self.spilled.extend_from_slice(bytes);
    }

    #[cold]
    #[inline(never)]
    fn spill(&mut self, more: usize) {
        let mut spilled = Vec::with_capacity((2 * INLINE).max(2 * (self.len + more)));
        spilled.extend_from_slice(&self.inline[..self.len]);
        self.spilled = spilled;
        self.on_heap = true;
    }

    /// Drops everything written from byte `at` on.
    fn truncate(&mut self, at: usize) {
        if self.on_heap {
            self.spilled.truncate(at);
        } else {
            self.len = self.len.min(at);
        }
    }

    #[inline]
    fn varint(&mut self, mut n: u64) {
        if n < 0x80 {
            self.push(&[n as u8]);
            return;
        }
        let mut bytes = [0u8; 10];
        let mut i = 0;
        while n >= 0x80 {
            bytes[i] = (n as u8) | 0x80;
            n >>= 7;
            i += 1;
        }
        bytes[i] = n as u8;
        self.push(&bytes[..=i]);
    }

    /// Starts the entry of property `index`, with its tag.
    #[inline]
    fn begin(&mut self, index: usize, tag: u8) {
        if self.last.is_some_and(|last| last >= index) {
            self.in_order = false;
        }
        self.last = Some(index);
        self.entries += 1;
        if index < 64 {
            self.seen |= 1 << index;
        }
        self.varint(index as u64);
        self.push(&[tag]);
    }

    pub(crate) fn null(&mut self, index: usize) {
        self.begin(index, NULL);
    }

    pub(crate) fn bool(&mut self, index: usize, v: bool) {
        self.begin(index, if v { TRUE } else { FALSE });
    }

    pub(crate) fn u64(&mut self, index: usize, v: u64) {
        self.begin(index, UINT);
        self.varint(v);
    }

    pub(crate) fn i64(&mut self, index: usize, v: i64) {
        match u64::try_from(v) {
            Ok(v) => self.u64(index, v),
            Err(_) => {
                self.begin(index, NEG);
                self.varint(!v as u64);
            }
        }
    }

    /// An `f64`; one that is not finite is `null`, as in a `serde_json::Value`.
    pub(crate) fn f64(&mut self, index: usize, v: f64) {
        if v.is_finite() {
            self.begin(index, FLOAT);
            self.push(&v.to_le_bytes());
        } else {
            self.null(index);
        }
    }

    pub(crate) fn number(&mut self, index: usize, n: &Number) {
        if let Some(v) = n.as_u64() {
            self.u64(index, v);
        } else if let Some(v) = n.as_i64() {
            self.i64(index, v);
        } else {
            self.f64(index, n.as_f64().unwrap_or(f64::NAN));
        }
    }

    pub(crate) fn str(&mut self, index: usize, v: &str) {
        self.begin(index, STR);
        self.varint(v.len() as u64);
        self.push(v.as_bytes());
    }

    /// Starts a list of strings; returns the mark [`Writer::undo_strs`] takes.
    pub(crate) fn strs(&mut self, index: usize) -> ListMark {
        let mark = ListMark {
            at: self.len(),
            last: self.last,
            in_order: self.in_order,
        };
        self.begin(index, STRS);
        mark
    }

    pub(crate) fn item(&mut self, v: &str) {
        self.varint(v.len() as u64 + 1);
        self.push(v.as_bytes());
    }

    pub(crate) fn end_strs(&mut self) {
        self.push(&[0]);
    }

    /// Takes back a list begun at `mark`, returning the items written so far, so that it can be
    /// kept as a [`Value`] instead: the writer is as it was before the list began.
    pub(crate) fn undo_strs(&mut self, mark: ListMark) -> Vec<Value> {
        let mut written = self.bytes().get(mark.at..).unwrap_or_default();
        // The entry's index and tag, then the items written so far (with no end yet).
        let _ = varint(&mut written);
        let items = Strings::packed(written.get(1..).unwrap_or_default());
        let items: Vec<Value> = items.map(Value::from).collect();
        self.truncate(mark.at);
        self.entries -= 1;
        self.last = mark.last;
        self.in_order = mark.in_order;
        items
    }

    /// A value held as a `serde_json::Value`: in place where it is one the rules accept, else
    /// kept as it is.
    pub(crate) fn value(&mut self, index: usize, v: &Value) {
        match v {
            Value::Null => self.null(index),
            Value::Bool(b) => self.bool(index, *b),
            Value::Number(n) => self.number(index, n),
            Value::String(s) => self.str(index, s),
            Value::Array(items) if items.iter().all(Value::is_string) => {
                self.strs(index);
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .for_each(|s| self.item(s));
                self.end_strs();
            }
            other => self.other(index, other.clone()),
        }
    }

    /// Any other value, kept as it is.
    pub(crate) fn other(&mut self, index: usize, v: Value) {
        self.begin(index, OTHER);
        self.varint(self.others.len() as u64);
        self.others.push(v);
    }

    /// The finished buffer, its entries in form order, with a default (from `default`) for each
    /// property of `defaults` (ascending indices) that has no entry.
    pub(crate) fn finish(
        self,
        defaults: &[u32],
        default: impl FnMut(&mut Writer, usize),
    ) -> Packed {
        let seen = self.seen;
        let missing = defaults.iter().any(|&d| d >= 64 || seen & (1 << d) == 0);
        if self.in_order && !missing {
            return self.into_packed();
        }
        let mut out = self.merged(defaults, default);
        out.others = self.others;
        out.into_packed()
    }

    /// The entries sorted into form order, with the defaults merged in: only for replies out of
    /// form order, or that leave out a property with a default.
    #[cold]
    #[inline(never)]
    fn merged(&self, defaults: &[u32], mut default: impl FnMut(&mut Writer, usize)) -> Writer {
        let bytes = self.bytes();
        let mut spans = Vec::with_capacity(self.entries);
        let mut cursor = Cursor::new(bytes, &self.others);
        let mut start = 0;
        while let Some(index) = cursor.next_index() {
            let end = bytes.len() - cursor.rest();
            spans.push((index, start, end));
            start = end;
        }
        spans.sort_by_key(|&(index, _, _)| index);
        let mut out = Writer::new();
        let mut spans = spans.into_iter().peekable();
        let mut defaults = defaults.iter().map(|&d| d as usize).peekable();
        loop {
            let take_span = match (spans.peek(), defaults.peek()) {
                (None, None) => break,
                (Some(&(s, _, _)), Some(&d)) => s <= d,
                (Some(_), None) => true,
                (None, Some(_)) => false,
            };
            if take_span {
                if let Some((index, start, end)) = spans.next() {
                    if defaults.peek() == Some(&index) {
                        defaults.next();
                    }
                    out.last = Some(index);
                    out.entries += 1;
                    out.push(&bytes[start..end]);
                }
            } else if let Some(d) = defaults.next() {
                default(&mut out, d);
            }
        }
        out
    }

    fn into_packed(self) -> Packed {
        let bytes: Box<[u8]> = if self.on_heap {
            self.spilled.into_boxed_slice()
        } else {
            Box::from(&self.inline[..self.len])
        };
        Packed {
            bytes,
            others: self.others,
            entries: self.entries,
        }
    }
}

/// Where a list of strings began, and the order as it stood before it.
pub(crate) struct ListMark {
    at: usize,
    last: Option<usize>,
    in_order: bool,
}

/// A finished buffer: what a [`Content`](super::Content) holds.
#[derive(Clone, Default)]
pub(crate) struct Packed {
    pub(super) bytes: Box<[u8]>,
    pub(super) others: Vec<Value>,
    pub(super) entries: usize,
}

/// Reads entries from a buffer, in order.
pub(super) struct Cursor<'a> {
    rest: &'a [u8],
    others: &'a [Value],
}

impl<'a> Cursor<'a> {
    pub(super) fn new(bytes: &'a [u8], others: &'a [Value]) -> Self {
        Cursor {
            rest: bytes,
            others,
        }
    }

    /// The next entry's property index and value. A buffer this module did not write ends
    /// the entries where it stops making sense; nothing panics.
    pub(super) fn next(&mut self) -> Option<(usize, ValueRef<'a>)> {
        let index = self.index()?;
        Some((index, self.value()?))
    }

    /// The value of property `i`, read past the entries before it without decoding them.
    pub(super) fn find(&mut self, i: usize) -> Option<ValueRef<'a>> {
        loop {
            let index = self.index()?;
            if index == i {
                return self.value();
            }
            if index > i {
                return None;
            }
            self.skip()?;
        }
    }

    fn index(&mut self) -> Option<usize> {
        usize::try_from(varint(&mut self.rest)?).ok()
    }

    fn tag(&mut self) -> Option<u8> {
        let (&tag, rest) = self.rest.split_first()?;
        self.rest = rest;
        Some(tag)
    }

    /// The value of the entry whose index was just read.
    fn value(&mut self) -> Option<ValueRef<'a>> {
        Some(match self.tag()? {
            NULL => ValueRef::Null,
            FALSE => ValueRef::Bool(false),
            TRUE => ValueRef::Bool(true),
            UINT => ValueRef::Number(varint(&mut self.rest)?.into()),
            NEG => ValueRef::Number((!(varint(&mut self.rest)? as i64)).into()),
            FLOAT => {
                let (bytes, rest) = self.rest.split_first_chunk::<8>()?;
                self.rest = rest;
                ValueRef::Number(Number::from_f64(f64::from_le_bytes(*bytes))?)
            }
            STR => ValueRef::String(text(&mut self.rest)?),
            STRS => {
                let items = Strings::packed(self.rest);
                self.skip_items()?;
                ValueRef::Strings(items)
            }
            OTHER => {
                let i = usize::try_from(varint(&mut self.rest)?).ok()?;
                ValueRef::Json(self.others.get(i)?)
            }
            _ => return None,
        })
    }

    /// Steps over the value of the entry whose index was just read: lengths only, no text is
    /// checked, so finding a value costs the number of entries before it, not their bytes.
    fn skip(&mut self) -> Option<()> {
        match self.tag()? {
            NULL | FALSE | TRUE => {}
            UINT | NEG | OTHER => {
                varint(&mut self.rest)?;
            }
            FLOAT => self.rest = self.rest.get(8..)?,
            STR => {
                let len = usize::try_from(varint(&mut self.rest)?).ok()?;
                self.rest = self.rest.get(len..)?;
            }
            STRS => self.skip_items()?,
            _ => return None,
        }
        Some(())
    }

    fn skip_items(&mut self) -> Option<()> {
        loop {
            let len = usize::try_from(varint(&mut self.rest)?).ok()?;
            let Some(len) = len.checked_sub(1) else {
                return Some(());
            };
            self.rest = self.rest.get(len..)?;
        }
    }

    /// The bytes not read yet.
    pub(super) fn rest(&self) -> usize {
        self.rest.len()
    }

    /// Steps over the next entry whole; its index.
    pub(super) fn next_index(&mut self) -> Option<usize> {
        let index = self.index()?;
        self.skip()?;
        Some(index)
    }
}

/// Reads a varint off the front of `bytes`.
#[inline]
pub(super) fn varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = bytes.split_first()?;
        *bytes = rest;
        n |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(n);
        }
    }
    None
}

/// Reads a length-prefixed string off the front of `bytes`.
fn text<'a>(bytes: &mut &'a [u8]) -> Option<&'a str> {
    let len = usize::try_from(varint(bytes)?).ok()?;
    let (text, rest) = bytes.split_at_checked(len)?;
    *bytes = rest;
    std::str::from_utf8(text).ok()
}

/// An item of a [`STRS`] list off the front of `bytes`; `None` at the end of the list.
pub(super) fn item<'a>(bytes: &mut &'a [u8]) -> Option<&'a str> {
    let len = usize::try_from(varint(bytes)?).ok()?.checked_sub(1)?;
    let (text, rest) = bytes.split_at_checked(len)?;
    *bytes = rest;
    std::str::from_utf8(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(packed: &Packed) -> Vec<(usize, Value)> {
        let mut cursor = Cursor::new(&packed.bytes, &packed.others);
        std::iter::from_fn(|| cursor.next())
            .map(|(i, v)| (i, v.to_value()))
            .collect()
    }

    #[test]
    fn every_value_reads_back_as_written() {
        let mut w = Writer::new();
        w.null(0);
        w.bool(1, false);
        w.bool(2, true);
        w.u64(3, u64::MAX);
        w.i64(4, i64::MIN);
        w.i64(5, -1);
        w.i64(6, 127);
        w.f64(7, -0.5);
        w.str(8, "ünïcode");
        w.strs(9);
        w.item("");
        w.item("b");
        w.end_strs();
        w.other(300, serde_json::json!({"a": [1]}));
        w.f64(301, f64::NAN);
        let packed = w.finish(&[], |_, _| {});
        assert_eq!(packed.entries, 12);
        let want = serde_json::json!([
            null, false, true, u64::MAX, i64::MIN, -1, 127, -0.5, "ünïcode", ["", "b"],
            {"a": [1]}, null
        ]);
        let got: Vec<Value> = read(&packed).into_iter().map(|(_, v)| v).collect();
        assert_eq!(Value::Array(got), want);
        let indices: Vec<usize> = read(&packed).into_iter().map(|(i, _)| i).collect();
        assert_eq!(indices, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 300, 301]);
    }

    #[test]
    fn entries_out_of_order_are_sorted_and_defaults_merged() {
        let mut w = Writer::new();
        w.str(4, "d");
        w.u64(1, 1);
        w.str(200, &"x".repeat(1000));
        let packed = w.finish(&[0, 1, 3, 500], |w, i| w.value(i, &Value::from(100 + i)));
        let got = read(&packed);
        assert_eq!(packed.entries, got.len());
        assert_eq!(
            got,
            [
                (0, Value::from(100)),
                (1, Value::from(1)),
                (3, Value::from(103)),
                (4, Value::from("d")),
                (200, Value::from("x".repeat(1000))),
                (500, Value::from(600)),
            ]
        );
    }

    #[test]
    fn defaults_fill_only_the_gaps_of_an_ordered_reply() {
        // In order, a default left out: merged in its place.
        let mut w = Writer::new();
        w.u64(0, 1);
        w.u64(2, 2);
        let packed = w.finish(&[1, 2], |w, i| w.str(i, "default"));
        assert_eq!(
            read(&packed),
            [
                (0, Value::from(1)),
                (1, Value::from("default")),
                (2, Value::from(2))
            ]
        );
        // Past 64 properties the seen-set does not reach: a default whose property was sent is
        // still not written twice.
        let mut w = Writer::new();
        w.u64(63, 1);
        w.u64(64, 2);
        w.u64(70, 3);
        let packed = w.finish(&[63, 64, 65], |w, i| w.u64(i, 100));
        assert_eq!(
            read(&packed),
            [
                (63, Value::from(1)),
                (64, Value::from(2)),
                (65, Value::from(100)),
                (70, Value::from(3))
            ]
        );
        assert_eq!(packed.entries, 4);
    }

    #[test]
    fn find_steps_over_the_entries_before_its_own() {
        let mut w = Writer::new();
        w.str(0, "a");
        w.u64(1, 300);
        w.strs(2);
        w.item("x");
        w.end_strs();
        w.f64(3, 1.5);
        w.i64(5, -2);
        w.other(6, serde_json::json!({}));
        w.null(7);
        w.bool(8, true);
        let packed = w.finish(&[], |_, _| {});
        let find = |i| {
            Cursor::new(&packed.bytes, &packed.others)
                .find(i)
                .map(|v| v.to_value())
        };
        let want = serde_json::json!(["a", 300, ["x"], 1.5, null, -2, {}, null, true, null]);
        for (i, want) in want.as_array().unwrap().iter().enumerate() {
            match i {
                4 | 9 => assert_eq!(find(i), None, "{i}"),
                _ => assert_eq!(find(i).as_ref(), Some(want), "{i}"),
            }
        }
    }

    #[test]
    fn a_list_taken_back_returns_its_items() {
        let mut w = Writer::new();
        w.u64(0, 7);
        let mark = w.strs(1);
        w.item("a");
        w.item("bc");
        assert_eq!(w.undo_strs(mark), [Value::from("a"), Value::from("bc")]);
        w.other(1, serde_json::json!(["a", "bc", 3]));
        let packed = w.finish(&[], |_, _| {});
        assert_eq!(
            read(&packed),
            [(0, Value::from(7)), (1, serde_json::json!(["a", "bc", 3]))]
        );
    }

    #[test]
    fn a_list_taken_back_after_a_spill_leaves_nothing_behind() {
        let mut w = Writer::new();
        let mark = w.strs(0);
        let item = "z".repeat(100);
        for _ in 0..5 {
            w.item(&item);
        }
        assert_eq!(w.undo_strs(mark).len(), 5);
        w.other(0, Value::from(7));
        w.str(1, "after");
        assert!(w.in_order, "the list taken back leaves the order as it was");
        let packed = w.finish(&[], |_, _| {});
        assert_eq!(
            read(&packed),
            [(0, Value::from(7)), (1, Value::from("after"))]
        );
    }

    #[test]
    fn a_buffer_that_spills_keeps_every_byte() {
        let mut w = Writer::new();
        let long = "y".repeat(INLINE - 3);
        w.str(0, &long);
        w.str(1, "after the spill");
        let packed = w.finish(&[], |_, _| {});
        assert_eq!(
            read(&packed),
            [(0, Value::from(long)), (1, Value::from("after the spill"))]
        );
    }

    #[test]
    fn a_broken_buffer_ends_without_a_panic() {
        for bytes in [
            &[0x80u8][..],
            &[0, STR, 5, b'a'],
            &[0, 99],
            &[0, FLOAT, 1],
            &[0, OTHER, 0],
        ] {
            let mut cursor = Cursor::new(bytes, &[]);
            assert!(cursor.next().is_none(), "{bytes:?}");
        }
        let mut bytes: &[u8] = &[0xff; 11];
        assert_eq!(varint(&mut bytes), None);
    }
}
