//! The four formats, checked strictly: the JSON-Schema-Test-Suite's optional format cases
//! (draft 2020-12; `fixtures/json-schema-test-suite/`, copied with their source named), the
//! cases a review found, and each rule pinned at its boundary.

use elicit_core::schema::Format;
use serde_json::Value;

/// Cases where this crate decides otherwise than the suite, on purpose: (format, data, reason).
const DIFFERENCES: &[(&str, &str, &str)] = &[];

fn suite(file: &str) -> Vec<(String, String, bool)> {
    let path = format!(
        "{}/fixtures/json-schema-test-suite/{file}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let groups: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut cases = Vec::new();
    for group in groups {
        for test in group["tests"].as_array().unwrap() {
            // Non-strings are ignored by `format`; a form property of this kind holds strings.
            if let Some(data) = test["data"].as_str() {
                cases.push((
                    data.to_owned(),
                    test["description"].as_str().unwrap().to_owned(),
                    test["valid"].as_bool().unwrap(),
                ));
            }
        }
    }
    cases
}

#[test]
fn the_json_schema_test_suite() {
    let mut failures = Vec::new();
    let mut run = 0;
    for (file, format) in [
        ("date", Format::Date),
        ("date-time", Format::DateTime),
        ("email", Format::Email),
        ("uri", Format::Uri),
    ] {
        for (data, description, valid) in suite(file) {
            if DIFFERENCES.iter().any(|(f, d, _)| *f == file && *d == data) {
                continue;
            }
            run += 1;
            if format.is_valid(&data) != valid {
                failures.push(format!(
                    "{file}: {data:?} ({description}): expected valid={valid}"
                ));
            }
        }
    }
    assert!(run >= 150, "{run} cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn uris_per_rfc_3986() {
    for bad in [
        "http://x:abc/",
        "http://[::1/",
        "http://[1::2::3]/",
        "http://x/a[b]",
        "http://x?q=[1]",
        "http://a@b@c/",
        "http://x/%2z",
        "http://x/%2",
        "http://[::1]x/",
        "http://[v.x]/",
        "http://[v1.]/",
        "http://[vz.x]/",
        "http://[1:2:3:4:5:6:7:8:9]/",
        "http://[1:2:3:4:5:6:7]/",
        "http://[12345::]/",
        "http://[::1.2.3.256]/",
        "http://[1::2:3.4.5.6:7]/",
        "http://x/#a#b",
    ] {
        assert!(!Format::Uri.is_valid(bad), "{bad}");
    }
    for good in [
        "http://[::1]:8080/",
        "http://[1:2:3:4:5:6:7:8]/",
        "http://[1:2:3:4:5:6:1.2.3.4]/",
        "http://[::ffff:1.2.3.4]/",
        "http://[1::]/",
        "http://[::]/",
        "http://[v1.fe:80]/",
        "http://[v1.x]/",
        "http://x:/",
        "http://x:65536/",
        "http://u:p@x/",
        "http://x/a:b@c/?q=/?#f/?",
        "urn:isbn:0451450523",
        "file:///tmp/x%20y",
        "a:",
        "x+y.z-w:v",
    ] {
        assert!(Format::Uri.is_valid(good), "{good}");
    }
}

#[test]
fn emails_per_rfc_5321() {
    let label = |n: usize| "a".repeat(n);
    // A domain of at most 253 bytes, labels of at most 63; a local part of at most 64.
    let domain_253 = format!("{}.{}.{}.{}", label(63), label(63), label(63), label(61));
    assert_eq!(domain_253.len(), 253);
    assert!(Format::Email.is_valid(&format!("x@{domain_253}")));
    assert!(!Format::Email.is_valid(&format!("x@{domain_253}b")));
    assert!(Format::Email.is_valid(&format!("x@{}.com", label(63))));
    assert!(!Format::Email.is_valid(&format!("x@{}.com", label(64))));
    assert!(Format::Email.is_valid(&format!("x@com.{}", label(63))));
    assert!(!Format::Email.is_valid(&format!("x@com.{}", label(64))));
    assert!(Format::Email.is_valid(&format!("{}@x.com", label(64))));
    assert!(!Format::Email.is_valid(&format!("{}@x.com", label(65))));
    for bad in [
        "x@[::1]",
        "x@[a b]",
        "x@[IPv6:1::2::3]",
        "x@[IPv6:12345::]",
        "x@[1.2.3]",
        "x@[01.2.3.4]",
        "x@[]",
        "\"a\"b\"@x.com",
        "\"a\\\"@x.com",
        "a\u{7f}@x.com",
        "a@x..com",
        "a@-x.com",
        "a@x-.com",
        "a@x.com.",
        "a@.x.com",
        "a@x.co-",
        "a@x.c_m",
        "a@x.c m",
        "a@",
        "a@exämple-.com",
    ] {
        assert!(!Format::Email.is_valid(bad), "{bad}");
    }
    for good in [
        "x@[IPv6:::1]",
        "x@[IPv6:2001:db8::1]",
        "x@[192.168.0.1]",
        "\"a\\\"b\"@x.com",
        "\"a b\"@x.com",
        "user@localhost",
        "a@x-y.com",
        "a@x--y.c0m",
        "a@xn--bcher-kva.example",
        "a@9.example",
        "a@x.exämple.com",
        "josé@exämple.com",
        "a!#$%&'*+/=?^_`{|}~-@x.com",
    ] {
        assert!(Format::Email.is_valid(good), "{good}");
    }
}

#[test]
fn leap_seconds_only_at_the_end_of_a_utc_day() {
    for good in [
        "1998-12-31T23:59:60Z",
        "1998-12-31T15:59:60-08:00",
        "1999-01-01T05:29:60+05:30",
        "2026-11-30T23:59:60.5Z",
    ] {
        assert!(Format::DateTime.is_valid(good), "{good}");
    }
    for bad in [
        "2026-11-30T12:00:60Z",
        "1998-12-31T23:59:60+01:00",
        "1998-12-31T23:58:60Z",
        "1998-12-31T23:59:61Z",
        "1998-12-31T22:59:60Z",
    ] {
        assert!(!Format::DateTime.is_valid(bad), "{bad}");
    }
}

#[test]
fn quoted_local_parts_take_printable_pairs_only() {
    // RFC 5321 `quoted-pairSMTP = %d92 %d32-126`: a backslash and a printable character.
    for good in [
        "\"a\\ b\"@x.com",
        "\"a\\~b\"@x.com",
        "\"abc\\\"d\"@x.com",
        "\"\\\\\"@x.com",
    ] {
        assert!(Format::Email.is_valid(good), "{good:?}");
    }
    for bad in [
        "\"a\\\tb\"@x.com",
        "\"a\\\u{1f}b\"@x.com",
        "\"a\\\u{7f}b\"@x.com",
        "\"a\\éb\"@x.com",
        "\"a\\",
    ] {
        assert!(!Format::Email.is_valid(bad), "{bad:?}");
    }
}

#[test]
fn domain_labels_are_counted_whole() {
    let a = |n: usize| "a".repeat(n);
    // Hyphens count towards a label's 63 bytes.
    assert!(Format::Email.is_valid(&format!("x@a-{}.com", a(61))));
    assert!(!Format::Email.is_valid(&format!("x@a-{}.com", a(62))));
    // In a domain with a non-ASCII label, every label is checked on its own: ASCII ones by the
    // host-name rule, internationalized ones by letters and digits of any script. The labels
    // come before and after the first non-ASCII byte.
    for (before, after) in [("", ".com"), ("a.", ""), ("", "")] {
        let domain = |label: &str| format!("x@{before}exämple.{label}{after}");
        assert!(Format::Email.is_valid(&domain(&a(63))));
        assert!(!Format::Email.is_valid(&domain(&a(64))));
        for good in ["x-y", "x--y", "9", "a9"] {
            assert!(Format::Email.is_valid(&domain(good)), "{}", domain(good));
        }
        for bad in ["-x", "x-", "-", "x_y", "x y", ""] {
            assert!(!Format::Email.is_valid(&domain(bad)), "{}", domain(bad));
        }
    }
    assert!(Format::Email.is_valid(&format!("x@{}.exämple.com", a(63))));
    assert!(!Format::Email.is_valid(&format!("x@{}.exämple.com", a(64))));
    let u_label_63 = format!("ä{}", a(61));
    assert_eq!(u_label_63.len(), 63);
    assert!(Format::Email.is_valid(&format!("x@{u_label_63}.com")));
    assert!(!Format::Email.is_valid(&format!("x@{u_label_63}a.com")));
    for good in [
        "x@x-y.exämple.com",
        "x@ex-ämple.com",
        "x@ä-ö.com",
        "x@ä9.com",
    ] {
        assert!(Format::Email.is_valid(good), "{good}");
    }
    for bad in [
        "x@exämple..com",
        "x@exämple.com..",
        "x@-x.exämple.com",
        "x@x-.exämple.com",
        "x@x_y.exämple.com",
        "x@-ä.com",
        "x@ä-.com",
        "x@ä_ö.com",
        "x@ä\u{2603}.com",
    ] {
        assert!(!Format::Email.is_valid(bad), "{bad}");
    }
}

#[test]
fn ipv4_octets_from_0_to_255_without_leading_zeros() {
    let literal = |ip: &str| format!("x@[{ip}]");
    for good in [
        "0.9.10.99",
        "100.199.200.249",
        "250.255.1.0",
        "255.255.255.255",
    ] {
        assert!(Format::Email.is_valid(&literal(good)), "{good}");
        assert!(
            Format::Uri.is_valid(&format!("http://[::ffff:{good}]/")),
            "{good}"
        );
    }
    for bad in [
        "256.0.0.1",
        "260.0.0.1",
        "300.0.0.1",
        "1x5.0.0.1",
        "15x.0.0.1",
        "2x5.0.0.1",
        "25x.0.0.1",
        "x5.0.0.1",
        "00.0.0.1",
        "010.0.0.1",
        "1000.0.0.1",
        "1.2.3",
        "1.2.3.4.5",
    ] {
        assert!(!Format::Email.is_valid(&literal(bad)), "{bad}");
        assert!(
            !Format::Uri.is_valid(&format!("http://[::ffff:{bad}]/")),
            "{bad}"
        );
    }
}

#[test]
fn date_times_have_both_colons_and_an_offset() {
    for bad in [
        "2026-11-30T12:00-00Z",
        "2026-11-30T12-00:00Z",
        "2026-11-30T12-00-00Z",
        "2026-11-30T12:00:0Z",
        "2026-11-30T12:00:00",
        "2026-11-30T12:00:00+05",
        "2026-11-30T12:00:00+05:3",
        "2026-11-30T12:00:00+0530",
    ] {
        assert!(!Format::DateTime.is_valid(bad), "{bad}");
    }
    assert!(Format::DateTime.is_valid("2026-11-30T12:00:00Z"));
}

#[test]
fn address_literals_in_emails() {
    for ok in ["0.0.0.0", "255.255.255.255", "10.0.0.1"] {
        assert!(Format::Email.is_valid(&format!("x@[{ok}]")), "{ok}");
    }
    for bad in [
        "256.0.0.1",
        "01.0.0.1",
        "1.2.3",
        "1.2.3.4.5",
        "1..2.3",
        "a.b.c.d",
        "",
    ] {
        assert!(!Format::Email.is_valid(&format!("x@[{bad}]")), "{bad}");
    }
    for ok in [
        "::",
        "::1",
        "1::",
        "1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7::",
        "::2:3:4:5:6:7:8",
        "1:2:3:4:5:6:1.2.3.4",
        "::1.2.3.4",
        "fe80::1:2",
        "ABCD:ef01::",
    ] {
        assert!(Format::Email.is_valid(&format!("x@[IPv6:{ok}]")), "{ok}");
    }
    for bad in [
        "",
        ":",
        ":::",
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7:8::",
        "1::2::3",
        "12345::",
        ":1::",
        "1::2:",
        "1.2.3.4::",
        "1:2:3:4:5:6:7:1.2.3.4",
        "::01.2.3.4",
        "g::",
    ] {
        assert!(!Format::Email.is_valid(&format!("x@[IPv6:{bad}]")), "{bad}");
    }
}

#[test]
fn full_dates() {
    for ok in ["2026-11-30", "2024-02-29", "2000-02-29", "0001-01-01"] {
        assert!(Format::Date.is_valid(ok), "{ok}");
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
        assert!(!Format::Date.is_valid(bad), "{bad}");
    }
}

#[test]
fn date_times_with_offsets() {
    for ok in [
        "2026-11-30T12:00:00Z",
        "2026-11-30t12:00:00z",
        "2026-11-30T23:59:60Z",
        "2026-11-30T12:00:00.123456+05:30",
        "2026-11-30T00:00:00-00:00",
    ] {
        assert!(Format::DateTime.is_valid(ok), "{ok}");
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
        assert!(!Format::DateTime.is_valid(bad), "{bad}");
    }
}
