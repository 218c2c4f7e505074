//! MCP protocol versions, and what each can express of a requestedSchema.

use std::fmt;
use std::str::FromStr;

/// An MCP protocol version that has elicitation.
///
/// Ordered by release, so `version >= ProtocolVersion::V2025_11_25` asks for a feature.
///
/// Every schema, request and result is written for a version:
/// [`Elicit::requested_schema_for`](crate::Elicit::requested_schema_for) and
/// [`Elicit::form_request_for`](crate::Elicit::form_request_for) (`requested_schema()` is the
/// newest); a schema that arrives as JSON with
/// [`RequestedSchema::for_version`](crate::schema::RequestedSchema::for_version) or
/// [`FormRequest::with_version`](crate::FormRequest::with_version). What each version is sent:
///
/// | | 2025-06-18 | 2025-11-25 | 2026-07-28 |
/// |---|---|---|---|
/// | string, number, integer, boolean properties | sent | sent | sent |
/// | `default` on a boolean | sent | sent | sent |
/// | `default` on string, number, integer and single-select | left out (the field stays optional; serde still fills it on parse) | sent | sent |
/// | untitled single-select | `enum` | `enum` | `enum` |
/// | titled single-select | `enum` + `enumNames` | `oneOf: [{const, title}]` | `oneOf: [{const, title}]` |
/// | multi-select (`Vec`/`BTreeSet`/`HashSet` of an enum) | one optional boolean per choice, `FIELD__CHOICE`, titled "Field: Choice" (the field's description on the first, its default list as the booleans' defaults), read back into the list by [`unfold_reply`](crate::schema::RequestedSchema::unfold_reply) (`Ask` does it), so `minItems`, `maxItems` and uniqueness are checked on the field; a field named as one of the boxes is refused | `items.enum` or `items.anyOf` | `items.enum` or `items.anyOf` |
/// | `$schema` | not sent | not sent | not sent |
/// | form request `mode` | absent from [`FormRequest`](crate::FormRequest)'s params; rmcp's model adds `"mode":"form"`, which every client tested accepts | `"form"` | `"form"` |
/// | URL mode (`UrlRequest`) | refused | `mode: "url"` with `elicitationId` | `mode: "url"`, no `elicitationId` (its `inputRequests` key names it) |
/// | URL-mode URLs | | absolute `http` or `https` with a host (`javascript:`, `data:`, `http://` refused); `lint()` notes `http` | the same |
/// | `notifications/elicitation/complete`, `-32042` error | refused | `ElicitationComplete`, `UrlElicitationRequired` (listing at least one elicitation) | refused |
/// | how the request travels | `elicitation/create` request (`to_jsonrpc`) | `elicitation/create` request (`to_jsonrpc`) | `InputRequiredResult.inputRequests` (with `requestState`, at least one of them), answered in the retry's `inputResponses`; `to_jsonrpc` refuses |
///
/// `$schema` is optional from 2025-11-25 on and carries nothing a client needs (MCP fixes the
/// dialect). The TypeScript SDK client strips it before its handler sees the request and the Python
/// client passes it through untouched, so leaving it out is accepted everywhere;
/// [`RequestedSchema::set_dialect`](crate::schema::RequestedSchema::set_dialect) adds it where a
/// peer wants it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// `2025-06-18`: elicitation introduced (form mode only).
    V2025_06_18,
    /// `2025-11-25`: URL mode, titled and multi-select enums, defaults on every kind.
    V2025_11_25,
    /// `2026-07-28`: server-to-client requests travel in `InputRequiredResult.inputRequests`.
    V2026_07_28,
}

impl ProtocolVersion {
    /// The newest version this crate knows.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// Every version, oldest first.
    pub const ALL: [ProtocolVersion; 3] = [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The version string on the wire, e.g. `"2025-11-25"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Whether elicitation requests carry `mode` (`"form"` or `"url"`): 2025-11-25 and later.
    #[must_use]
    pub fn has_modes(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// Whether a server asks through `InputRequiredResult.inputRequests`, answered in the
    /// retried request, instead of sending `elicitation/create` mid-call: 2026-07-28 and later.
    #[must_use]
    pub fn has_input_requests(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A protocol version string this crate does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVersion(String);

impl UnknownVersion {
    /// The version string as it was given.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Protocol versions before elicitation: a client on one cannot show forms.
const BEFORE_ELICITATION: [&str; 2] = ["2024-11-05", "2025-03-26"];

/// Whether `version` is a protocol version that predates elicitation (2024-11-05, 2025-03-26).
pub(crate) fn predates_elicitation(version: &str) -> bool {
    BEFORE_ELICITATION.contains(&version)
}

impl fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if predates_elicitation(&self.0) {
            return write!(
                f,
                "MCP protocol version {:?} predates elicitation (2025-06-18)",
                self.0
            );
        }
        write!(
            f,
            "unknown MCP protocol version {:?}; known: 2025-06-18, 2025-11-25, 2026-07-28",
            self.0
        )
    }
}

impl std::error::Error for UnknownVersion {}

impl FromStr for ProtocolVersion {
    type Err = UnknownVersion;

    fn from_str(s: &str) -> Result<Self, UnknownVersion> {
        ProtocolVersion::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnknownVersion(s.to_owned()))
    }
}
