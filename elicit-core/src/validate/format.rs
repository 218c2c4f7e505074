//! The four string formats MCP elicitation allows, checked strictly.

use crate::schema::Format;

/// Whether `s` is a valid value of `format`.
pub fn is_valid(format: Format, s: &str) -> bool {
    match format {
        Format::Email => is_email(s),
        Format::Uri => is_absolute_uri(s),
        Format::Date => is_date(s.as_bytes()),
        Format::DateTime => is_date_time(s.as_bytes()),
    }
}

/// An address `local@domain` (RFC 5321 mailbox): a dot-atom or quoted local part of at most 64
/// bytes, and a host name (labels of letters, digits and inner hyphens; non-ASCII letters allowed
/// as in RFC 6531) or a bracketed address literal. A domain without a dot (`user@localhost`) is
/// valid, as RFC 5321 allows.
fn is_email(s: &str) -> bool {
    if let Some(verdict) = ascii_email(s.as_bytes()) {
        return verdict;
    }
    general_email(s)
}

/// The general check: every form the grammar allows, split at the last `@`.
fn general_email(s: &str) -> bool {
    let Some(at) = s.rfind('@') else {
        return false;
    };
    is_local_part(&s[..at]) && is_mail_domain(&s[at + 1..])
}

/// Byte classes, one table lookup per byte.
const ATEXT: u8 = 1;
const ALNUM: u8 = 2;
/// Characters an absolute URI may hold after its scheme, other than `%` and `#`.
const URI: u8 = 4;
/// Characters of a URI scheme after its first letter.
const SCHEME: u8 = 8;

static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let alnum = c.is_ascii_alphanumeric();
        let mut class = 0;
        if alnum {
            class |= ATEXT | ALNUM | URI | SCHEME;
        }
        if matches!(c, b'+' | b'-' | b'.') {
            class |= SCHEME;
        }
        if matches!(
            c,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'/'
                | b'='
                | b'?'
                | b'^'
                | b'_'
                | b'`'
                | b'{'
                | b'|'
                | b'}'
                | b'~'
                | b'-'
        ) {
            class |= ATEXT;
        }
        if matches!(
            c,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'/'
                | b'?'
                | b'['
                | b']'
        ) {
            class |= URI;
        }
        table[b] = class;
        b += 1;
    }
    table
};

/// The common case in one forward pass: a dot-atom local part, one `@` and a host name, all
/// ASCII. `None` sends anything else (quoted local parts, address literals, non-ASCII) to the
/// general check, which gives the same verdict on everything this one decides.
fn ascii_email(s: &[u8]) -> Option<bool> {
    if s.first() == Some(&b'"') {
        return None;
    }
    let class = |i: usize, of: u8| s.get(i).is_some_and(|&b| CLASS[usize::from(b)] & of != 0);
    // What a byte that ends a run says: non-ASCII goes to the general check.
    let stop = |b: Option<&u8>| match b {
        Some(&b) if b >= 0x80 => None,
        _ => Some(false),
    };
    // The local part: runs of atext separated by single dots, up to the first `@`.
    let mut i = 0;
    loop {
        let run = i;
        while class(i, ATEXT) {
            i += 1;
        }
        if i == run {
            return stop(s.get(i));
        }
        match s.get(i) {
            Some(b'.') => i += 1,
            Some(b'@') => break,
            other => return stop(other),
        }
    }
    if i > 64 {
        return Some(false);
    }
    let domain = &s[i + 1..];
    if domain.first() == Some(&b'[') {
        return None;
    }
    if domain.is_empty() || domain.len() > 253 {
        return Some(false);
    }
    // The host: labels of letters and digits with inner hyphens, at most 63 bytes each.
    let mut j = 0;
    loop {
        let start = j;
        while domain
            .get(j)
            .is_some_and(|&b| CLASS[usize::from(b)] & ALNUM != 0 || (b == b'-' && j > start))
        {
            j += 1;
        }
        if j - start > 63 {
            return Some(false);
        }
        if j == start || domain[j - 1] == b'-' {
            return stop(domain.get(j));
        }
        match domain.get(j) {
            None => return Some(true),
            Some(b'.') => j += 1,
            other => return stop(other),
        }
    }
}

/// `atext` of RFC 5322: the ASCII characters a dot-atom may hold.
fn is_atext(b: u8) -> bool {
    CLASS[usize::from(b)] & ATEXT != 0
}

fn is_local_part(local: &str) -> bool {
    if local.is_empty() || local.len() > 64 {
        return false;
    }
    if let Some(inner) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        let mut escaped = false;
        for c in inner.chars() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' || c.is_control() {
                return false;
            }
        }
        return !escaped;
    }
    let bytes = local.as_bytes();
    if bytes[0] == b'.' || bytes[bytes.len() - 1] == b'.' || local.contains("..") {
        return false;
    }
    if local.is_ascii() {
        return bytes.iter().all(|&b| b == b'.' || is_atext(b));
    }
    // RFC 6531: non-ASCII letters are allowed; whitespace of any script is not.
    local.chars().all(|c| {
        c == '.' || (c.is_ascii() && is_atext(c as u8)) || (!c.is_ascii() && !c.is_whitespace())
    })
}

fn is_mail_domain(domain: &str) -> bool {
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return !literal.is_empty()
            && literal
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b':');
    }
    is_host_name(domain)
}

fn is_host_name(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            let bytes = label.as_bytes();
            !bytes.is_empty()
                && bytes.len() <= 63
                && bytes[0] != b'-'
                && bytes[bytes.len() - 1] != b'-'
                && if label.is_ascii() {
                    bytes
                        .iter()
                        .all(|&b| b.is_ascii_alphanumeric() || b == b'-')
                } else {
                    label.chars().all(|c| {
                        c.is_ascii_alphanumeric()
                            || c == '-'
                            || (!c.is_ascii() && c.is_alphanumeric())
                    })
                }
        })
}

/// An absolute URI (RFC 3986 section 4.3 plus an optional fragment): a scheme, `:`, then only
/// characters URIs allow, with well-formed percent-escapes and at most one `#`.
fn is_absolute_uri(s: &str) -> bool {
    let bytes = s.as_bytes();
    let class = |i: usize, of: u8| {
        bytes
            .get(i)
            .is_some_and(|&b| CLASS[usize::from(b)] & of != 0)
    };
    // The scheme: a letter, then letters, digits, `+`, `-` and `.`, up to a `:`.
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut i = 1;
    while class(i, SCHEME) {
        i += 1;
    }
    if bytes.get(i) != Some(&b':') {
        return false;
    }
    i += 1;
    let mut fragment = false;
    loop {
        while class(i, URI) {
            i += 1;
        }
        let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
        match bytes.get(i) {
            None => return true,
            Some(b'%') if hex(i + 1) && hex(i + 2) => i += 3,
            Some(b'#') if !fragment => {
                fragment = true;
                i += 1;
            }
            Some(_) => return false,
        }
    }
}

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
/// (`Z` or `+HH:MM`/`-HH:MM`), which is required. Second 60 is allowed for leap seconds.
fn is_date_time(s: &[u8]) -> bool {
    if s.len() < 20 || !is_date(&s[..10]) || !matches!(s[10], b'T' | b't') {
        return false;
    }
    let time = &s[11..];
    if time.len() < 9 || time[2] != b':' || time[5] != b':' {
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
    match rest {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', oh1, oh2, b':', om1, om2] => {
            matches!((digits(&[*oh1, *oh2]), digits(&[*om1, *om2])), (Some(oh), Some(om)) if oh <= 23 && om <= 59)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for ok in [
            "jane@example.com",
            "a.b+tag@sub.example.co.uk",
            "user@localhost",
            "\"quoted name\"@example.com",
            "josé@exämple.com",
            "x@[192.168.0.1]",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "not-an-email",
            "Ada",
            "@example.com",
            "user@",
            "a..b@example.com",
            ".a@example.com",
            "a b@example.com",
            "user@-example.com",
            "user@exa mple.com",
            "user@example..com",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    /// The one-pass scanner agrees with the general check on every string it decides: all
    /// strings up to 6 characters over an alphabet of the characters that matter, and the length
    /// limits.
    #[test]
    fn email_fast_path_agrees_with_general_check() {
        let alphabet = ['a', '-', '.', '@', '"', '[', ']', '!', ' ', 'é'];
        let mut decided = 0;
        let mut word = Vec::new();
        let mut check = |s: &str| {
            if let Some(fast) = ascii_email(s.as_bytes()) {
                decided += 1;
                assert_eq!(fast, general_email(s), "{s:?}");
            }
        };
        fn each(word: &mut Vec<char>, left: usize, alphabet: &[char], f: &mut dyn FnMut(&str)) {
            f(&word.iter().collect::<String>());
            if left == 0 {
                return;
            }
            for &c in alphabet {
                word.push(c);
                each(word, left - 1, alphabet, f);
                word.pop();
            }
        }
        each(&mut word, 6, &alphabet, &mut check);
        for (local, label) in [(64, 63), (65, 63), (64, 64), (1, 1)] {
            let s = format!("{}@{}.com", "a".repeat(local), "b".repeat(label));
            check(&s);
        }
        let long_domain = format!("a@{}", vec!["b".repeat(60); 5].join("."));
        check(&long_domain);
        assert!(
            decided > 100_000,
            "the fast path decided only {decided} strings"
        );
    }

    #[test]
    fn uris() {
        for ok in [
            "https://example.com/a?b=c#d",
            "urn:isbn:0451450523",
            "mailto:jane@example.com",
            "http://[::1]:8080/",
            "file:///tmp/x%20y",
        ] {
            assert!(is_absolute_uri(ok), "{ok}");
        }
        for bad in [
            "example.com",
            "/relative/path",
            "1http://x",
            "http://exa mple.com",
            "http://x/%zz",
            "http://x/#a#b",
            "http://x/ü",
            "",
        ] {
            assert!(!is_absolute_uri(bad), "{bad}");
        }
    }

    #[test]
    fn dates() {
        for ok in ["2026-11-30", "2024-02-29", "2000-02-29", "0001-01-01"] {
            assert!(is_date(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "2026-02-29",
            "1900-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-01",
            "26-11-30",
            "2026-11-31",
            "2026/11/30",
        ] {
            assert!(!is_date(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn date_times() {
        for ok in [
            "2026-11-30T12:00:00Z",
            "2026-11-30t12:00:00z",
            "2026-11-30T23:59:60Z",
            "2026-11-30T12:00:00.123456+05:30",
            "2026-11-30T00:00:00-00:00",
        ] {
            assert!(is_date_time(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "2023-08-27T03:05:00",
            "2026-11-30 12:00:00Z",
            "2026-11-30T24:00:00Z",
            "2026-11-30T12:60:00Z",
            "2026-11-30T12:00:00.Z",
            "2026-11-30T12:00:00+5:30",
            "2026-11-30T12:00:00+24:00",
            "2026-11-30",
        ] {
            assert!(!is_date_time(bad.as_bytes()), "{bad}");
        }
    }
}
