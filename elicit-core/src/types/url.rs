//! `url::Url` as a form field. schemars describes it as `format: uri`; the schema's format rule
//! checks the string against RFC 3986 before `url` parses it. `length` bounds it as a string.

use crate::derive_support::{ElicitValue, TakesLength};

impl ElicitValue for url::Url {}
impl TakesLength for url::Url {}
