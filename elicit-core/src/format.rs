//! The four string formats MCP elicitation allows, each checked strictly against its grammar:
//! `email` (RFC 5321 `Mailbox`, with RFC 6531's UTF-8), `uri` (RFC 3986 `URI`), `date` and
//! `date-time` (RFC 3339). Each is one forward pass over the bytes, with no allocation.

/// A string `format` that MCP elicitation allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `email`: an email address.
    Email,
    /// `uri`: an absolute URI (RFC 3986).
    Uri,
    /// `date`: an RFC 3339 full-date, `2026-11-30`.
    Date,
    /// `date-time`: an RFC 3339 date-time with an offset, `2026-11-30T12:00:00Z`.
    DateTime,
}

impl Format {
    /// The keyword value on the wire.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Date => "date",
            Format::DateTime => "date-time",
        }
    }

    /// Whether `value` is a valid string of this format, by the rules replies are checked with
    /// (see [Reading replies](crate#reading-replies) in the crate documentation).
    ///
    /// ```
    /// use elicit_core::schema::Format;
    /// assert!(Format::Date.is_valid("2026-11-30"));
    /// assert!(!Format::Date.is_valid("2026-02-30"));
    /// ```
    #[must_use]
    pub fn is_valid(self, value: &str) -> bool {
        let s = value.as_bytes();
        match self {
            Format::Email => is_email(s),
            Format::Uri => is_uri(s),
            Format::Date => is_date(s),
            Format::DateTime => is_date_time(s),
        }
    }

    /// Parses a wire keyword value.
    #[must_use]
    pub fn from_wire(s: &str) -> Option<Format> {
        Some(match s {
            "email" => Format::Email,
            "uri" => Format::Uri,
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            _ => return None,
        })
    }

    /// Words for error messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Format::Email => "email address",
            Format::Uri => "absolute URI",
            Format::Date => "date, such as 2026-12-24",
            Format::DateTime => "date and time with its time zone, such as 2026-12-24T19:30:00Z",
        }
    }
}

/// Byte classes.
const ATEXT: u16 = 1;
const UNRESERVED: u16 = 2;
const SUB_DELIM: u16 = 4;
const SCHEME: u16 = 8;
const LET_DIG: u16 = 16;
const COLON: u16 = 32;
const AT: u16 = 64;
const SLASH: u16 = 128;
const QUESTION: u16 = 256;
const HASH: u16 = 512;
/// A byte of an email atom: RFC 5322 `atext`, or any byte of a non-ASCII character (RFC 6531).
const ATOM: u16 = 1024;

/// `unreserved / sub-delims`, a byte of a host name (`reg-name`).
const REG_NAME: u16 = UNRESERVED | SUB_DELIM;
/// A byte of `userinfo`.
const USERINFO: u16 = REG_NAME | COLON;
/// A byte of `pchar`, a path segment's byte.
const PCHAR: u16 = REG_NAME | COLON | AT;
/// A byte of a path: `pchar` and `/`.
const PATH: u16 = PCHAR | SLASH;
/// A byte of a query or fragment: `pchar`, `/` and `?`.
const QUERY: u16 = PATH | QUESTION;

/// Whether `c` is in any of the classes of `of`: one look-up in a table of every byte's
/// classes, built at compile time.
fn class(c: u8, of: u16) -> bool {
    CLASSES[c as usize] & of != 0
}

/// Each byte's classes.
static CLASSES: [u16; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 256 {
        table[c] = classes_of(c as u8);
        c += 1;
    }
    table
};

/// The classes of byte `c`.
const fn classes_of(c: u8) -> u16 {
    match c {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => ATEXT | UNRESERVED | SCHEME | LET_DIG | ATOM,
        b'!' | b'$' | b'&' | b'\'' | b'*' | b'=' => ATEXT | SUB_DELIM | ATOM,
        b'#' => ATEXT | HASH | ATOM,
        b'%' | b'^' | b'`' | b'{' | b'|' | b'}' => ATEXT | ATOM,
        b'(' | b')' | b',' | b';' => SUB_DELIM,
        b'+' => ATEXT | SUB_DELIM | SCHEME | ATOM,
        b'-' => ATEXT | UNRESERVED | SCHEME | ATOM,
        b'.' => UNRESERVED | SCHEME,
        b'/' => ATEXT | SLASH | ATOM,
        b':' => COLON,
        b'?' => ATEXT | QUESTION | ATOM,
        b'@' => AT,
        b'_' | b'~' => ATEXT | UNRESERVED | ATOM,
        // Any byte of a non-ASCII character (RFC 6531).
        0x80.. => ATOM,
        _ => 0,
    }
}

// ---- email ----------------------------------------------------------------------------------

/// `Mailbox = Local-part "@" ( Domain / address-literal )`. The local part is a dot-string of
/// `atext` (UTF-8 beyond ASCII allowed, as RFC 6531 does) or a quoted string, at most 64 bytes.
/// The domain is host-name labels (letters, digits, inner hyphens; non-ASCII letters and digits
/// for internationalized names), at most 63 bytes each and 253 in all, or a bracketed IPv4
/// address or `IPv6:` address. A domain of one label (`user@localhost`) is valid, as RFC 5321
/// allows.
fn is_email(s: &[u8]) -> bool {
    let local_end = if s.first() == Some(&b'"') {
        match quoted_string(s) {
            Some(end) => end,
            None => return false,
        }
    } else {
        dot_string(s)
    };
    if local_end == 0 || local_end > 64 || s.get(local_end) != Some(&b'@') {
        return false;
    }
    let domain = &s[local_end + 1..];
    match domain.first() {
        Some(b'[') => address_literal(domain),
        _ => is_domain(domain),
    }
}

/// The length of the dot-string at the start of `s` (`Atom *("." Atom)`), or 0 if there is none
/// or it ends on a dot; it stops at the first byte that is neither an atom's nor a dot.
fn dot_string(s: &[u8]) -> usize {
    // Whether the next byte must begin an atom: at the start, and after each dot.
    let mut atom_due = true;
    for (i, &b) in s.iter().enumerate() {
        if class(b, ATOM) {
            atom_due = false;
        } else if b != b'.' {
            return if atom_due { 0 } else { i };
        } else if std::mem::replace(&mut atom_due, true) {
            return 0;
        }
    }
    if atom_due { 0 } else { s.len() }
}

/// The length of the quoted string that starts `s`: printable ASCII but `"` and `\`, or a
/// backslash and a printable character.
fn quoted_string(s: &[u8]) -> Option<usize> {
    let mut i = 1;
    loop {
        match *s.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' if s.get(i + 1).is_some_and(|b| (0x20..0x7f).contains(b)) => i += 2,
            0x20..=0x7e => i += 1,
            _ => return None,
        }
    }
}

/// A domain name: labels of letters and digits with inner hyphens. An ASCII name, the common
/// kind, is read in one pass.
fn is_domain(domain: &[u8]) -> bool {
    if domain.is_empty() || domain.len() > 253 {
        return false;
    }
    if !domain.is_ascii() {
        return domain.split(|&b| b == b'.').all(is_label);
    }
    // Where the current label starts; each label is checked whole at the dot that ends it.
    let mut start = 0;
    let ends_well =
        |end: usize, start: usize| end > start && end - start <= 63 && domain[end - 1] != b'-';
    for (i, &b) in domain.iter().enumerate() {
        if class(b, LET_DIG) {
            continue;
        }
        match b {
            b'.' if ends_well(i, start) => start = i + 1,
            b'-' if i > start => {}
            _ => return false,
        }
    }
    ends_well(domain.len(), start)
}

fn is_label(label: &[u8]) -> bool {
    let (Some(&first), Some(&last)) = (label.first(), label.last()) else {
        return false;
    };
    if label.len() > 63 {
        return false;
    }
    if class(first, LET_DIG)
        && class(last, LET_DIG)
        && label.iter().all(|&b| class(b, LET_DIG) || b == b'-')
    {
        return true;
    }
    if label.is_ascii() {
        return false;
    }
    // An internationalized label (U-label): letters and digits of any script.
    let Ok(label) = std::str::from_utf8(label) else {
        return false;
    };
    let letter_or_digit = |c: char| c.is_alphanumeric();
    label.starts_with(letter_or_digit)
        && label.ends_with(letter_or_digit)
        && label.chars().all(|c| c.is_alphanumeric() || c == '-')
}

/// `[` IPv4 `]` or `[IPv6:` IPv6 `]`.
fn address_literal(s: &[u8]) -> bool {
    let Some(inner) = s.strip_prefix(b"[").and_then(|s| s.strip_suffix(b"]")) else {
        return false;
    };
    match inner.strip_prefix(b"IPv6:") {
        Some(v6) => is_ipv6(v6),
        None => is_ipv4(inner),
    }
}

// ---- addresses -------------------------------------------------------------------------------

/// `dec-octet "." dec-octet "." dec-octet "." dec-octet`, each 0 to 255 without leading zeros.
fn is_ipv4(s: &[u8]) -> bool {
    let mut parts = 0;
    for octet in s.split(|&b| b == b'.') {
        parts += 1;
        let ok = match octet {
            [d] => d.is_ascii_digit(),
            [b'1'..=b'9', d] => d.is_ascii_digit(),
            [b'1', d, e] => d.is_ascii_digit() && e.is_ascii_digit(),
            [b'2', b'0'..=b'4', e] => e.is_ascii_digit(),
            [b'2', b'5', b'0'..=b'5'] => true,
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    parts == 4
}

/// RFC 3986 `IPv6address`: eight groups of one to four hex digits, the last two of which may be
/// an IPv4 address, with at most one `::` standing for one or more groups of zeros.
fn is_ipv6(s: &[u8]) -> bool {
    let (head, tail, elided) = match find(s, b"::") {
        Some(at) => (&s[..at], &s[at + 2..], true),
        None => (s, &[][..], false),
    };
    if elided && find(tail, b"::").is_some() {
        return false;
    }
    let Some(head_groups) = groups(head, !elided) else {
        return false;
    };
    let Some(tail_groups) = groups(tail, true) else {
        return false;
    };
    let total = head_groups + tail_groups;
    if elided { total <= 7 } else { total == 8 }
}

/// How many 16-bit groups `s` holds (`h16 *(":" h16)`, the last may be an IPv4 address, which
/// counts two), or `None` if it is not that. Empty is zero groups. `ipv4_last` says whether an
/// IPv4 address may end it.
fn groups(s: &[u8], ipv4_last: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let mut count = 0;
    let mut parts = s.split(|&b| b == b':').peekable();
    while let Some(part) = parts.next() {
        let last = parts.peek().is_none();
        if last && ipv4_last && part.contains(&b'.') {
            if !is_ipv4(part) {
                return None;
            }
            count += 2;
        } else if (1..=4).contains(&part.len()) && part.iter().all(u8::is_ascii_hexdigit) {
            count += 1;
        } else {
            return None;
        }
    }
    Some(count)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

// ---- uri --------------------------------------------------------------------------------------

/// RFC 3986 `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`, with
/// `hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty`.
/// Only ASCII: an IRI's characters must be percent-encoded.
fn is_uri(s: &[u8]) -> bool {
    // The scheme: a letter, then letters, digits, `+`, `-` and `.`, up to a `:`.
    if !s.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut i = 1;
    while s.get(i).is_some_and(|&b| class(b, SCHEME)) {
        i += 1;
    }
    if s.get(i) != Some(&b':') {
        return false;
    }
    let mut rest = &s[i + 1..];
    if let Some(after) = rest.strip_prefix(b"//") {
        let (authority, after) = split_at_any(after, SLASH | QUESTION | HASH);
        if !is_authority(authority) {
            return false;
        }
        rest = after;
    }
    let (path, after) = split_at_any(rest, QUESTION | HASH);
    // The path: segments of `pchar` between slashes (after `scheme:`, a path that does not
    // start with `//` cannot have an empty first segment followed by more, which the split
    // above already ruled out). A `%` and its two hex digits never straddle a slash, so the
    // path is checked whole.
    if !all_of(path, PATH) {
        return false;
    }
    // The query, then the fragment: `pchar`, `/` and `?`; a fragment ends the URI.
    let (query, fragment) = match after.first() {
        Some(b'?') => split_at_any(&after[1..], HASH),
        _ => (&[][..], after),
    };
    all_of(query, QUERY)
        && match fragment.split_first() {
            None => true,
            Some((b'#', fragment)) => all_of(fragment, QUERY),
            Some(_) => false,
        }
}

/// For a URL-mode URL: `Some(https)` when `url` is an absolute `http` or `https` URI with a
/// host, else `None`.
pub(crate) fn web_url(url: &str) -> Option<bool> {
    let s = url.as_bytes();
    if !is_uri(s) {
        return None;
    }
    let colon = s.iter().position(|&b| b == b':')?;
    let https = match &s[..colon] {
        scheme if scheme.eq_ignore_ascii_case(b"https") => true,
        scheme if scheme.eq_ignore_ascii_case(b"http") => false,
        _ => return None,
    };
    let authority = s[colon + 1..].strip_prefix(b"//")?;
    let (authority, _) = split_at_any(authority, SLASH | QUESTION | HASH);
    let host_port = match authority.iter().rposition(|&b| b == b'@') {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    // `is_uri` has checked the authority, so the host is empty only where nothing or the
    // port's colon follows the userinfo (a bracketed host is never empty).
    let no_host = matches!(host_port.first(), None | Some(b':'));
    (!no_host).then_some(https)
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn is_authority(authority: &[u8]) -> bool {
    // A host name alone, the common authority, is read in one pass.
    if all_of(authority, REG_NAME) {
        return true;
    }
    let (userinfo, host_port) = match authority.iter().rposition(|&b| b == b'@') {
        Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
        None => (None, authority),
    };
    if userinfo.is_some_and(|u| !all_of(u, USERINFO)) {
        return false;
    }
    let (host, port) = if host_port.first() == Some(&b'[') {
        match host_port.iter().position(|&b| b == b']') {
            Some(end) => {
                if !is_ip_literal(&host_port[1..end]) {
                    return false;
                }
                (&[][..], &host_port[end + 1..])
            }
            None => return false,
        }
    } else {
        match host_port.iter().position(|&b| b == b':') {
            Some(colon) => (&host_port[..colon], &host_port[colon..]),
            None => (host_port, &[][..]),
        }
    };
    // A reg-name (which also covers IPv4 addresses, valid or not as addresses).
    all_of(host, REG_NAME)
        && match port.split_first() {
            None => true,
            Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
            Some(_) => false,
        }
}

/// `IPv6address / IPvFuture`, the inside of `[` `]`.
fn is_ip_literal(s: &[u8]) -> bool {
    match s.first() {
        Some(b'v' | b'V') => {
            let Some(dot) = s.iter().position(|&b| b == b'.') else {
                return false;
            };
            let version = &s[1..dot];
            let rest = &s[dot + 1..];
            !version.is_empty()
                && version.iter().all(u8::is_ascii_hexdigit)
                && !rest.is_empty()
                && rest
                    .iter()
                    .all(|&b| class(b, UNRESERVED | SUB_DELIM) || b == b':')
        }
        _ => is_ipv6(s),
    }
}

/// Splits `s` at the first of `stops`, which starts the second part.
fn split_at_any(s: &[u8], stops: u16) -> (&[u8], &[u8]) {
    match s.iter().position(|&b| class(b, stops)) {
        Some(at) => s.split_at(at),
        None => (s, &[]),
    }
}

/// Whether all of `s` is bytes of a class in `of`, or `pct-encoded` (`%` and two hex digits).
fn all_of(s: &[u8], of: u16) -> bool {
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        if class(b, of) {
            i += 1;
        } else if b == b'%'
            && s.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            i += 3;
        } else {
            return false;
        }
    }
    true
}

// ---- dates ------------------------------------------------------------------------------------

fn digits(s: &[u8]) -> Option<u32> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`, a real day of a real month (leap years counted).
fn is_date(s: &[u8]) -> bool {
    if s.len() != 10 || s[4] != b'-' || s[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (digits(&s[0..4]), digits(&s[5..7]), digits(&s[8..10]))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `date-time`: a full-date, `T`, `HH:MM:SS`, an optional fraction, and an offset
/// (`Z` or `+HH:MM`/`-HH:MM`), which is required. Second 60 (a leap second) only at 23:59 UTC,
/// once the offset is applied (section 5.7).
fn is_date_time(s: &[u8]) -> bool {
    if s.len() < 20 || !is_date(&s[..10]) || !matches!(s[10], b'T' | b't') {
        return false;
    }
    // At least `HH:MM:SS` and a one-byte offset, as `s` holds at least 20 bytes.
    let time = &s[11..];
    if time[2] != b':' || time[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (
        digits(&time[0..2]),
        digits(&time[3..5]),
        digits(&time[6..8]),
    ) else {
        return false;
    };
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    let mut rest = &time[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    // The offset east of UTC, in minutes.
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
            match (digits(&[*oh1, *oh2]), digits(&[*om1, *om2])) {
                (Some(oh), Some(om)) if oh <= 23 && om <= 59 => {
                    let minutes = (oh * 60 + om) as i32;
                    if *sign == b'+' { minutes } else { -minutes }
                }
                _ => return false,
            }
        }
        _ => return false,
    };
    if sec == 60 {
        let utc = ((h * 60 + m) as i32 - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}
