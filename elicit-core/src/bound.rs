//! Numeric bounds, held as the schema wrote them and compared exactly with a reply's numbers.
//!
//! A float holds every integer only up to 2^53, so comparing through `f64` takes
//! `9007199254806528` as equal to `9007199254806527`. An integer bound is kept as an integer,
//! and each comparison between an integer and a float is exact.

use std::cmp::Ordering;
use std::fmt;

use serde::ser::{Serialize, Serializer};
use serde_json::Number;

/// A `minimum`, `maximum`, `exclusiveMinimum` or `exclusiveMaximum`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// An integer, held exactly: one written as an integer, or an integral float.
    Int(i128),
    /// A bound with a fraction, or too large for an `i128`: the nearest float, correctly
    /// rounded.
    Float(f64),
}

impl Bound {
    /// The bound a JSON number states. An integral float (`100.0`, `1e3`) is the integer it
    /// equals, so a bound reads the same whichever way it was written.
    #[must_use]
    pub fn of(n: &Number) -> Bound {
        if let Some(u) = n.as_u64() {
            Bound::Int(u.into())
        } else if let Some(i) = n.as_i64() {
            Bound::Int(i.into())
        } else {
            Bound::from(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// The bound as the nearest float.
    #[must_use]
    pub fn as_f64(self) -> f64 {
        match self {
            Bound::Int(i) => i as f64,
            Bound::Float(f) => f,
        }
    }

    /// Compares two bounds exactly.
    pub(crate) fn total_cmp(self, other: Bound) -> Ordering {
        match (self, other) {
            (Bound::Int(a), Bound::Int(b)) => a.cmp(&b),
            (Bound::Float(a), Bound::Float(b)) => a.total_cmp(&b),
            (Bound::Int(a), Bound::Float(b)) => int_vs_float(a, b),
            (Bound::Float(a), Bound::Int(b)) => int_vs_float(b, a).reverse(),
        }
    }
}

impl From<i64> for Bound {
    fn from(n: i64) -> Bound {
        Bound::Int(n.into())
    }
}

impl From<u64> for Bound {
    fn from(n: u64) -> Bound {
        Bound::Int(n.into())
    }
}

impl From<f64> for Bound {
    /// An integral float below 2^127 is an integer bound (exactly its value); any other is a
    /// float bound.
    fn from(n: f64) -> Bound {
        if n.fract() == 0.0 && n.abs() < I128_LIMIT {
            Bound::Int(n as i128)
        } else {
            Bound::Float(n)
        }
    }
}

/// A number of a reply, as JSON wrote it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Num {
    U(u64),
    I(i64),
    F(f64),
}

impl Num {
    /// A JSON number as it is written.
    pub(crate) fn of(n: &Number) -> Num {
        match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Num::U(u),
            (None, Some(i)) => Num::I(i),
            (None, None) => Num::F(n.as_f64().unwrap_or(f64::NAN)),
        }
    }

    /// Whether the number is an integer (`30` and `30.0`, never `30.5`).
    pub(crate) fn is_integer(self) -> bool {
        match self {
            Num::F(f) => f.fract() == 0.0,
            _ => true,
        }
    }

    /// How the number compares with `bound` where one machine comparison is exact: an integer
    /// with an integer bound, a float with a float bound, or with an integer one up to 2^53
    /// (which a float holds exactly). `None` where only [`cmp_bound`](Self::cmp_bound) is.
    pub(crate) fn quick_cmp(self, bound: Bound) -> Option<Ordering> {
        match (self, bound) {
            (Num::U(n), Bound::Int(b)) => Some(i128::from(n).cmp(&b)),
            (Num::I(n), Bound::Int(b)) => Some(i128::from(n).cmp(&b)),
            (Num::F(n), Bound::Float(b)) => n.partial_cmp(&b),
            (Num::F(n), Bound::Int(b)) if b.unsigned_abs() <= 1 << 53 => {
                n.partial_cmp(&(b as i64 as f64))
            }
            _ => None,
        }
    }

    /// How the number compares with `bound`, exactly.
    pub(crate) fn cmp_bound(self, bound: Bound) -> Ordering {
        if let Some(order) = self.quick_cmp(bound) {
            return order;
        }
        match (self, bound) {
            (Num::F(n), Bound::Int(b)) => int_vs_float(b, n).reverse(),
            (Num::U(n), Bound::Float(b)) => int_vs_float(n.into(), b),
            (Num::I(n), Bound::Float(b)) => int_vs_float(n.into(), b),
            // A NaN, which no JSON number is.
            _ => Ordering::Equal,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::U(n) => write!(f, "{n}"),
            Num::I(n) => write!(f, "{n}"),
            Num::F(n) => write!(f, "{n}"),
        }
    }
}

/// 2^127: every float at or above it is above every `i128`.
const I128_LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

/// How the integer `a` compares with the float `b`, exactly. NaN compares equal: no reply or
/// schema holds one (JSON has no NaN).
fn int_vs_float(a: i128, b: f64) -> Ordering {
    if b.is_nan() {
        return Ordering::Equal;
    }
    if b >= I128_LIMIT {
        return Ordering::Less;
    }
    if b < -I128_LIMIT {
        return Ordering::Greater;
    }
    // |b| < 2^127, so its integer part converts exactly.
    let whole = b.trunc();
    match a.cmp(&(whole as i128)) {
        Ordering::Equal if b > whole => Ordering::Less,
        Ordering::Equal if b < whole => Ordering::Greater,
        other => other,
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Bound::Int(i) => write!(f, "{i}"),
            Bound::Float(x) if x.fract() == 0.0 && x.abs() < 1e16 => write!(f, "{}", x as i64),
            Bound::Float(x) => write!(f, "{x}"),
        }
    }
}

/// Written as read: an integer as an integer, a float as a float (an integral one up to 2^53
/// as an integer, so `65535.0` never reaches a client that way).
impl Serialize for Bound {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Bound::Int(i) => match (i64::try_from(i), u64::try_from(i)) {
                (Ok(i), _) => serializer.serialize_i64(i),
                (_, Ok(u)) => serializer.serialize_u64(u),
                _ => serializer.serialize_f64(i as f64),
            },
            Bound::Float(x) if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0 => {
                serializer.serialize_i64(x as i64)
            }
            Bound::Float(x) => serializer.serialize_f64(x),
        }
    }
}

#[cfg(test)]
#[path = "../unit/bound.rs"]
mod tests;
