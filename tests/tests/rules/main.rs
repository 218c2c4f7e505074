//! Every rule enforced as written: numbers read correctly rounded and compared exactly,
//! constraining keywords enforced or refused, strict formats, and the wire rules of the spec.

mod boundaries;
mod formats;
mod keywords;
mod numbers;
mod values;
mod wire;
