//! `url::Url` as a form field. schemars describes it as `format: uri`; the schema's format rule
//! checks the string against RFC 3986 before `url` parses it.

use crate::derive_support::ElicitValue;

impl ElicitValue for url::Url {}
