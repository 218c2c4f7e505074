//! [`Confirm`]: the ready-made yes/no form.

use serde::{Deserialize, Serialize};

use crate::derive_support as __private_v2;
use crate::elicit::Elicit;

/// A yes/no question: one required boolean, `confirmed`, labelled "Confirm" and unchecked at
/// first. Give the question as the message of each request:
/// `Form::<Confirm>::new().message("Deploy to production?")`, or `ask.confirm(..)` in an rmcp
/// tool.
///
/// Why one boolean rather than a form with no fields: an empty form gives the user nothing to
/// press but the client's own buttons, and some clients cannot submit one at all (VS Code shows
/// an empty form whose Submit does nothing, so the call hangs). A checkbox says what is being
/// agreed to, reads the same in every client, and tells "accepted without checking" apart from
/// a confirmation.
///
/// ```
/// use elicit_core::{Confirm, ElicitResult};
///
/// let yes = ElicitResult::<Confirm>::from_json(r#"{"action":"accept","content":{"confirmed":true}}"#)?;
/// assert!(yes.is_confirmed());
/// let unchecked = ElicitResult::<Confirm>::from_json(r#"{"action":"accept","content":{"confirmed":false}}"#)?;
/// assert!(!unchecked.is_confirmed());
/// assert!(!ElicitResult::<Confirm>::from_json(r#"{"action":"decline"}"#)?.is_confirmed());
/// # Ok::<(), elicit_core::ElicitError>(())
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Confirm {
    /// Whether the user checked the box.
    #[schemars(title = "Confirm", description = "Check to go ahead.", extend("default" = false))]
    pub confirmed: bool,
}

impl Elicit for Confirm {
    const __ELICIT_MESSAGE: &'static str = "Please confirm.";
    const __ELICIT_FIELDS: &'static [__private_v2::FieldHooks] = &[__private_v2::FieldHooks {
        variants: <bool as __private_v2::ElicitField>::__elicit_variants,
        enum_names: <bool as __private_v2::ElicitField>::__elicit_enum_names,
    }];

    fn __elicit_cache() -> &'static __private_v2::SchemaCache {
        static CACHE: __private_v2::SchemaCache = __private_v2::SchemaCache::new();
        &CACHE
    }
}

impl crate::result::ElicitResult<Confirm> {
    /// Whether the user accepted with the box checked. A decline, a cancel, or an accept
    /// without the box checked are all "no".
    #[must_use]
    pub fn is_confirmed(&self) -> bool {
        matches!(
            self,
            crate::result::ElicitResult::Accept(Confirm { confirmed: true })
        )
    }
}
