//! The fast pass over reply text against the full parse (the serde_json passes).
//!
//! The fast pass decides nothing on its own: where it reads a reply, the full parse must accept
//! the same reply into the same value, and everything else must go to the full parse. These
//! tests check that on hand-picked edges and on many generated replies, and check that the
//! fast pass really does take the common replies (a test that it only ever gives up would pass
//! the agreement check and mean nothing).

use std::collections::BTreeSet;

use elicit_core::__testing::{
    fast_pass, fast_pass_content, reference_parse, reference_parse_content,
};
use elicit_core::{Elicit, ElicitResult, RequestedSchema};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
    Blue,
}

/// Every field kind, with rules on most.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Form {
    #[schemars(length(min = 1, max = 12))]
    name: String,
    #[schemars(email)]
    email: Option<String>,
    #[schemars(range(min = 1, max = 120))]
    age: u8,
    offset: Option<i64>,
    #[schemars(range(min = 0.0, max = 100.0))]
    score: Option<f64>,
    ratio: Option<f32>,
    agree: bool,
    color: Option<Color>,
    colors: Option<BTreeSet<Color>>,
    list: Option<Vec<Color>>,
    #[serde(default)]
    note: String,
}

const VALID: &str = r#"{"action":"accept","content":{"name":"Ada","email":"ada@example.com","age":36,"offset":-3600,"score":97.5,"ratio":0.25,"agree":true,"color":"green","colors":["red","blue"],"list":["red","red"],"note":"hi"}}"#;

/// Checks the parse of `json` against the reference parse (serde_json straight into the
/// target): the fast pass reads a reply only as the reference does, and the whole parse (the
/// fast pass, or where it gives up the full parse) reaches the reference's verdict, value and
/// violations. Values are compared as `Debug` text, so `-0.0` differs from `0.0`. Returns
/// whether the fast pass read the reply.
fn agree(json: &str) -> bool {
    let reference = reference_parse::<Form>(json);
    let fast = fast_pass::<Form>(json);
    if let Some(fast) = &fast {
        match &reference {
            Ok(r) => assert_eq!(format!("{fast:?}"), format!("{r:?}"), "typed: {json}"),
            Err(e) => panic!("the fast pass read {json}\nthe reference says {e:?}"),
        }
    }
    let whole = ElicitResult::<Form>::from_json(json);
    assert_eq!(format!("{whole:?}"), format!("{reference:?}"), "{json}");
    let schema = Form::requested_schema();
    let reference = reference_parse_content(schema, json);
    if let Some(content) = fast_pass_content(schema, json) {
        match &reference {
            Ok(r) => assert_eq!(format!("{content:?}"), format!("{r:?}"), "content: {json}"),
            Err(e) => panic!("the fast pass read {json} as content\nthe reference says {e:?}"),
        }
    }
    let whole = schema.parse_result_json(json);
    assert_eq!(whole.is_ok(), reference.is_ok(), "content: {json}");
    if let (Err(a), Err(b)) = (&whole, &reference) {
        assert_eq!(a, b, "content: {json}");
    }
    fast.is_some()
}

#[test]
fn the_fast_pass_takes_the_common_replies() {
    let replies = [
        VALID.to_owned(),
        // Whitespace everywhere JSON allows it.
        VALID
            .replace(':', " :\n\t")
            .replace(',', "\r\n, ")
            .replace('{', "{ ")
            .replace('}', " }"),
        // Keys in another order, optional fields absent.
        r#"{"action":"accept","content":{"agree":true,"age":120,"name":"Ada Lovelace"}}"#
            .to_owned(),
        // Integers given as floats, floats given as integers, an exponent.
        VALID
            .replace("\"age\":36", "\"age\":36.0")
            .replace("97.5", "97")
            .replace("0.25", "2.5e-1"),
        // The least integer the schema allows an `i64`: JSON's safe range.
        VALID.replace("-3600", "-9007199254740991"),
        VALID.replace("\"Ada\"", "\"Åda ☃\""),
        VALID.replace("0.25", "-0.0"),
        // Numbers read by serde_json itself: `-0` (a float to it), long or with an exponent.
        VALID.replace("-3600", "-0"),
        VALID.replace("97.5", "1.2345678901234567e1"),
        VALID.replace("0.25", "0.1234567890123456789"),
        VALID.replace("97.5", "0.30000000000000004"),
        VALID.replace("97.5", "99.99999999999999"),
        VALID.replace("[\"red\",\"red\"]", "[]"),
        // Content before the action, read again once the action is known.
        r#"{"content":{"name":"Ada","age":1,"agree":false,"ratio":0.1},"action":"accept"}"#
            .to_owned(),
        // Escapes in values, unescaped by serde_json.
        VALID.replace("\"Ada\"", "\"A\\nd\\u0061\\\"\""),
        // Decline and cancel, their content skipped; other envelope keys skipped.
        VALID.replace("accept", "decline"),
        VALID.replace("accept", "cancel"),
        VALID.replace(
            "{\"action\"",
            "{\"_meta\":{\"a\":[1,{\"b\":null}]},\"action\"",
        ),
        VALID.replace("}}", "},\"_meta\":7}"),
        // A key the form does not name (it does not deny them), with a value of any shape.
        VALID.replace("\"note\":\"hi\"", "\"note\":\"hi\",\"other\":1"),
        VALID.replace(
            "{\"name\"",
            "{\"x\":{\"a\":[1,{\"b\":null}],\"c\":\"\\n\"},\"name\"",
        ),
    ];
    for reply in &replies {
        assert!(agree(reply), "the fast pass gave up on {reply}");
        assert!(
            fast_pass_content(Form::requested_schema(), reply).is_some(),
            "the fast pass gave up on {reply} as content"
        );
    }
}

#[test]
fn the_fast_pass_gives_up_on_what_it_does_not_read() {
    let replies = [
        // An escape in a key, a control character or a broken escape in a value.
        VALID.replace("\"name\"", "\"n\\u0061me\""),
        VALID.replace("\"Ada\"", "\"A\u{1}da\""),
        VALID.replace("\"Ada\"", "\"A\\uD800\""),
        // Content before a decline, no content, a broken envelope.
        r#"{"content":{"name":"Ada","age":1,"agree":false},"action":"decline"}"#.to_owned(),
        r#"{"action":"accept"}"#.to_owned(),
        VALID.replace("\"accept\"", "\"Accept\""),
        VALID.replace("{\"action\"", "{\"action\":\"accept\",\"action\""),
        format!("{VALID} x"),
        VALID[..VALID.len() - 1].to_owned(),
        // Content that breaks a rule or the target.
        VALID.replace("\"age\":36", "\"age\":0"),
        VALID.replace("\"age\":36", "\"age\":36.5"),
        VALID.replace("\"age\":36", "\"age\":300"),
        VALID.replace("ada@example.com", "ada"),
        VALID.replace("\"color\":\"green\"", "\"color\":\"pink\""),
        VALID.replace("[\"red\",\"blue\"]", "[\"red\",\"red\"]"),
        VALID.replace("\"agree\":true,", ""),
        VALID.replace("\"offset\":-3600", "\"offset\":null"),
        VALID.replace("\"note\":\"hi\"", "\"note\":\"hi\",\"age\":36"),
        // Numbers out of range, or not JSON numbers.
        VALID.replace("-3600", "-9223372036854775809"),
        VALID.replace("0.25", "1e39"),
        VALID.replace("\"age\":36", "\"age\":036"),
        VALID.replace("97.5", "97."),
        VALID.replace("97.5", "1e400"),
        // Nested arrays and objects.
        VALID.replace("[\"red\",\"blue\"]", "[[\"red\"]]"),
        VALID.replace("\"note\":\"hi\"", "\"note\":{}"),
    ];
    for reply in &replies {
        assert!(!agree(reply), "the fast pass read {reply}");
    }
}

/// Where serde_json refuses a value the fast pass handed it (a number out of range, a value
/// under a key the form does not name), the error and its position in the reply are the ones
/// the reference gives.
#[test]
fn errors_from_values_read_by_serde_json_name_the_same_place() {
    for reply in [
        VALID.replace("\"age\":36", "\"age\":1e999"),
        VALID.replace("0.25", "-1e999"),
        VALID.replace("0.25", "\n  1e39"),
        VALID.replace(
            "\"note\":\"hi\"",
            "\"note\":\"hi\",\"other\":[\n 1,\n  1e999]",
        ),
        VALID.replace(
            "\"note\":\"hi\"",
            "\"note\":\"hi\",\"other\":{\"a\":\n\n1e999}",
        ),
        VALID.replace("\"note\":\"hi\"", "\"note\":\"hi\",\"other\": 1e999"),
    ] {
        agree(&reply);
        let schema = Form::requested_schema();
        assert!(
            reference_parse::<Form>(&reply).is_err()
                || reference_parse_content(schema, &reply).is_err(),
            "{reply}"
        );
    }
}

/// A small deterministic generator (xorshift), so a failure names a reply that reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

const KEYS: &[&str] = &[
    "name",
    "email",
    "age",
    "offset",
    "score",
    "ratio",
    "agree",
    "color",
    "colors",
    "list",
    "note",
    "n\\u0061me",
    "other",
    "",
];

const VALUES: &[&str] = &[
    "\"Ada\"",
    "\"\"",
    "\"ada@example.com\"",
    "\"a@b\"",
    "\"Åda ☃\"",
    "\"A\\\"da\"",
    "\"\\u00e9\"",
    "\"\u{1}\"",
    "\"aaaaaaaaaaaaa\"",
    "\"green\"",
    "\"pink\"",
    "0",
    "-0",
    "1",
    "36",
    "36.0",
    "3.6e1",
    "-1",
    "120",
    "121",
    "255",
    "256",
    "97.5",
    "-97.5",
    "0.1",
    "-0.0",
    "1e400",
    "1.",
    "01",
    "-",
    "1.5e-3",
    "123456789012345.5",
    "1234567890123456.5",
    "0.30000000000000004",
    "3.4028235e38",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "true",
    "false",
    "tru",
    "null",
    "[]",
    "[\"red\"]",
    "[\"red\",\"blue\"]",
    "[\"red\",\"red\"]",
    "[\"red\",]",
    "[[\"red\"]]",
    "[1]",
    "{}",
    "{\"a\":1}",
];

const SPACE: &[&str] = &["", "", "", " ", "\n", "\t ", "\r\n"];

fn reply(rng: &mut Rng) -> String {
    // A valid reply's fields, then some of them dropped, replaced, repeated or moved.
    let mut fields: Vec<(&str, &str)> = vec![
        ("name", "\"Ada\""),
        ("email", "\"ada@example.com\""),
        ("age", "36"),
        ("offset", "-3600"),
        ("score", "97.5"),
        ("ratio", "0.25"),
        ("agree", "true"),
        ("color", "\"green\""),
        ("colors", "[\"red\",\"blue\"]"),
        ("list", "[\"red\",\"red\"]"),
        ("note", "\"hi\""),
    ];
    let mut edited = Vec::new();
    for (key, value) in fields.drain(..) {
        match rng.next() % 48 {
            0 => {}
            1..=3 => edited.push((key, rng.pick(VALUES))),
            4 => edited.push((rng.pick(KEYS), value)),
            5 => edited.extend([(key, value), (key, rng.pick(VALUES))]),
            _ => edited.push((key, value)),
        }
    }
    if rng.next().is_multiple_of(2) {
        for i in (1..edited.len()).rev() {
            edited.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
    }
    let mut content = String::from("{");
    for (i, (key, value)) in edited.iter().enumerate() {
        if i > 0 {
            content.push(',');
        }
        let (a, b, c) = (rng.pick(SPACE), rng.pick(SPACE), rng.pick(SPACE));
        content.push_str(&format!("{a}\"{key}\"{b}:{c}{value}"));
    }
    content.push_str(rng.pick(SPACE));
    content.push('}');
    let action = rng.pick(&[
        "\"accept\"",
        "\"accept\"",
        "\"accept\"",
        "\"decline\"",
        "null",
    ]);
    match rng.next() % 8 {
        0 => format!("{{\"content\":{content},\"action\":{action}}}"),
        1 => format!("{{\"action\":{action},\"content\":{content}}} "),
        2 => format!("{{\"action\":{action}}}"),
        _ => format!("{{\"action\":{action},\"content\":{content}}}"),
    }
}

#[test]
fn the_fast_pass_agrees_with_the_full_parse_on_generated_replies() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut taken, total) = (0, 30_000);
    for _ in 0..total {
        let json = reply(&mut rng);
        if agree(&json) {
            taken += 1;
        }
    }
    // Most generated replies break something; the valid ones must go the fast way.
    assert!(
        taken > total / 10,
        "the fast pass took only {taken} of {total}"
    );
}

/// The same, for a schema that arrives as JSON and allows keys it does not name.
#[test]
fn the_fast_pass_agrees_on_runtime_content() {
    let schema = RequestedSchema::from_value(serde_json::json!({
        "type": "object",
        "properties": {
            "n": {"type": "number", "minimum": -1.5},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 2},
            "ok": {"type": "boolean"}
        },
        "required": ["ok"]
    }))
    .expect("a valid schema");
    let mut taken = 0;
    for (json, fast) in [
        (r#"{"action":"accept","content":{"ok":true}}"#, true),
        (
            r#"{"action":"accept","content":{"ok":true,"n":-1.5,"tags":["b","a"]}}"#,
            true,
        ),
        (r#"{"action":"accept","content":{"ok":true,"n":-2}}"#, false),
        (
            r#"{"action":"accept","content":{"ok":true,"tags":["a","b","a"]}}"#,
            false,
        ),
        (r#"{"action":"accept","content":{"n":1}}"#, false),
        (
            r#"{"action":"accept","content":{"ok":true,"x":[{"y":null}]}}"#,
            true,
        ),
        (
            r#"{"action":"accept","content":{"ok":true,"x":1,"x":2}}"#,
            true,
        ),
    ] {
        let content = fast_pass_content(&schema, json);
        assert_eq!(content.is_some(), fast, "{json}");
        let reference = reference_parse_content(&schema, json);
        if let Some(content) = content {
            taken += 1;
            assert_eq!(Ok(content), reference, "{json}");
        }
        let whole = schema.parse_result_json(json);
        assert_eq!(whole.is_ok(), reference.is_ok(), "{json}");
    }
    assert_eq!(taken, 4);
}
