//! chrono's date types as form fields. schemars already describes them (`date`, `date-time`);
//! the schema's format rule checks the string strictly before chrono parses it.

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};

use crate::derive_support::ElicitValue;

impl ElicitValue for NaiveDate {}
impl ElicitValue for DateTime<Utc> {}
impl ElicitValue for DateTime<FixedOffset> {}
