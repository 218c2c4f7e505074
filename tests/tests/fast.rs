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
        // Decimals whose `f64` lies on a midpoint of two `f32`s: rounded once, as an `f32`
        // (found by search: via the `f64`, the first reads as 9.667520523071289).
        VALID.replace("0.25", "9.66752004623413"),
        VALID.replace("0.25", "0.00000404126171815733"),
        // Short decimals an `f32` field reads in the fast pass (up to 7 digits), and the
        // first lengths past it, left to serde_json.
        VALID.replace("0.25", "0.1"),
        VALID.replace("0.25", "1677721.7"),
        VALID.replace("0.25", "-3.402823"),
        VALID.replace("0.25", "0.000001"),
        VALID.replace("0.25", "16777217.5"),
        VALID.replace("0.25", "0.12345678"),
        // Zero, and decimals with a zero integer part.
        VALID.replace("-3600", "0").replace("97.5", "0.5"),
        // Content before the action, read again once the action is known.
        r#"{"content":{"name":"Ada","age":1,"agree":false,"ratio":0.1},"action":"accept"}"#
            .to_owned(),
        // Escapes in values and keys, unescaped by serde_json: a property's name, a key the form
        // does not name, the envelope's keys and the action.
        VALID.replace("\"Ada\"", "\"A\\nd\\u0061\\\"\""),
        VALID.replace("\"name\"", "\"n\\u0061me\""),
        VALID.replace("\"note\":\"hi\"", "\"note\":\"hi\",\"o\\\"ther\":1"),
        VALID
            .replace(
                "{\"action\":\"accept\"",
                "{\"\\u0061ction\":\"acc\\u0065pt\"",
            )
            .replace("\"content\"", "\"c\\u006fntent\""),
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
        // A control character or a broken escape in a value.
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
        VALID.replace("97.5", "-.5"),
        VALID.replace("97.5", "-"),
        VALID.replace("97.5", "-x"),
        VALID.replace("97.5", ".5"),
        VALID.replace("97.5", "00.5"),
        // A second content, valid on its own.
        VALID.replace(
            "}}",
            &format!("}},\"content\":{}}}", &VALID[29..VALID.len() - 1]),
        ),
        // Nested arrays and objects.
        VALID.replace("[\"red\",\"blue\"]", "[[\"red\"]]"),
        VALID.replace("\"note\":\"hi\"", "\"note\":{}"),
    ];
    for reply in &replies {
        assert!(!agree(reply), "the fast pass read {reply}");
    }
}

/// All-optional: content may be absent or `null`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Optional {
    name: Option<String>,
    ratio: Option<f32>,
}

/// Replies the first pass gives up on and the report pass finds nothing wrong with are read
/// again from the `serde_json::Value` written out as text, by the same pass: the value is the
/// one `from_value` and the reference give, an `f32` read from the `f64` as a `Value` holds it.
#[test]
fn valid_replies_the_first_pass_leaves_are_read_from_the_value() {
    // Content before the action with a key the form does not name, and an `f32` whose `f64`
    // lies between two `f32`s (read via the `f64`: 9.667520523071289).
    let early = r#"{"content":{"x":[1,{"y":null}],"name":"Ada","age":1,"agree":false,"ratio":9.66752004623413},"action":"accept"}"#;
    assert!(!agree(early), "the first pass read {early}");
    let read = ElicitResult::<Form>::from_json(early).expect("a valid reply");
    let value: serde_json::Value = serde_json::from_str(early).unwrap();
    assert_eq!(read, ElicitResult::<Form>::from_value(value).unwrap());
    let Some(form) = read.accepted() else {
        panic!("an accept")
    };
    assert_eq!(form.ratio, Some(9.667_520_523_071_289_f64 as f32));

    for reply in [
        r#"{"action":"accept"}"#,
        r#"{"action":"accept","content":null}"#,
        r#"{"content":null,"action":"accept"}"#,
        r#"{"content":{"z":"\u0000","name":"Ada"},"action":"accept"}"#,
    ] {
        let read = ElicitResult::<Optional>::from_json(reply).expect(reply);
        let value: serde_json::Value = serde_json::from_str(reply).unwrap();
        assert_eq!(
            read,
            ElicitResult::<Optional>::from_value(value).unwrap(),
            "{reply}"
        );
        assert_eq!(
            format!("{:?}", Ok::<_, elicit_core::ElicitError>(read)),
            format!("{:?}", reference_parse::<Optional>(reply)),
            "{reply}"
        );
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
        // The error on the second line, and on the fifth, of the value serde_json reads.
        VALID.replace("\"note\":\"hi\"", "\"note\":\"hi\",\"other\":[\n1e999]"),
        VALID.replace(
            "\"note\":\"hi\"",
            "\"note\":\"hi\",\"other\":[\n1,\n\n\n 1e999]",
        ),
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

/// A value under a key the form does not name is read by serde_json on its own, with two
/// levels of nesting fewer than it has in the reply: around the depth limit (128 levels in all),
/// the answer is the one the whole reply gets.
#[test]
fn values_nested_near_the_depth_limit_are_read_as_in_the_reply() {
    let mut read_fast = Vec::new();
    for depth in 120..=131 {
        for inner in ["", "1", "1e999", "x"] {
            let value = format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth));
            let reply = VALID.replace(
                "\"note\":\"hi\"",
                &format!("\"note\":\"hi\",\"other\":{value}"),
            );
            if agree(&reply) {
                read_fast.push((depth, inner));
            }
        }
    }
    // The form skips the value, as serde_json skips it whatever its depth: the fast pass reads
    // every reply but the one that is not JSON.
    assert_eq!(read_fast.len(), 12 * 3, "{read_fast:?}");
    assert!(read_fast.iter().all(|&(_, inner)| inner != "x"));
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
        // Not JSON numbers: no integer part.
        (
            r#"{"action":"accept","content":{"ok":true,"n":-.5}}"#,
            false,
        ),
        (r#"{"action":"accept","content":{"ok":true,"n":.5}}"#, false),
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

/// Past 64 properties the required ones are not held in one word: the fast pass checks them
/// one by one.
#[test]
fn required_properties_of_a_large_form_are_all_checked() {
    let properties: serde_json::Map<String, serde_json::Value> = (0..70)
        .map(|i| (format!("p{i}"), serde_json::json!({"type": "integer"})))
        .collect();
    let schema = RequestedSchema::from_value(serde_json::json!({
        "type": "object",
        "properties": properties,
        "required": ["p3", "p68"],
    }))
    .expect("a valid schema");
    for (content, accepted) in [
        (r#"{"p3":1,"p68":2}"#, true),
        (r#"{"p68":2,"p3":1,"p0":0,"p69":9}"#, true),
        (r#"{"p3":1}"#, false),
        (r#"{"p68":2}"#, false),
        (r#"{"p0":1,"p69":2}"#, false),
    ] {
        let json = format!(r#"{{"action":"accept","content":{content}}}"#);
        let reference = reference_parse_content(&schema, &json);
        assert_eq!(reference.is_ok(), accepted, "{json}");
        let fast = fast_pass_content(&schema, &json);
        assert_eq!(fast.is_some(), accepted, "{json}");
        if let Some(fast) = fast {
            assert_eq!(Ok(fast), reference, "{json}");
        }
        assert_eq!(schema.parse_result_json(&json).is_ok(), accepted, "{json}");
    }
}

/// A form that refuses keys it does not name: the fast pass leaves them to the full parse,
/// which names them.
#[test]
fn unknown_keys_of_a_closed_form_are_refused() {
    let schema = RequestedSchema::from_value(serde_json::json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": false,
    }))
    .expect("a valid schema");
    for (content, accepted) in [
        (r#"{"a":1}"#, true),
        (r#"{}"#, true),
        (r#"{"a":1,"b":2}"#, false),
        (r#"{"b":null}"#, false),
    ] {
        let json = format!(r#"{{"action":"accept","content":{content}}}"#);
        assert_eq!(
            fast_pass_content(&schema, &json).is_some(),
            accepted,
            "{json}"
        );
        let whole = schema.parse_result_json(&json);
        assert_eq!(whole.is_ok(), accepted, "{json}");
        assert_eq!(whole, reference_parse_content(&schema, &json), "{json}");
    }
}

/// A form whose own `Deserialize` reads the value of every key it does not name, as a
/// `serde_json::Value`: serde_json's depth limit applies to those values as it does in the reply.
#[derive(Debug, JsonSchema, Elicit)]
/// A note.
struct Keeps {
    note: String,
    /// How deeply the last value under a key the form does not name nests.
    nesting: Option<u32>,
}

fn nesting(value: &serde_json::Value) -> u32 {
    match value {
        serde_json::Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

impl<'de> Deserialize<'de> for Keeps {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = Keeps;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a note")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Keeps, A::Error> {
                let (mut note, mut depth) = (None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "note" => note = Some(map.next_value()?),
                        "nesting" => depth = map.next_value()?,
                        _ => depth = Some(nesting(&map.next_value()?)),
                    }
                }
                let note = note.ok_or_else(|| serde::de::Error::missing_field("note"))?;
                Ok(Keeps {
                    note,
                    nesting: depth,
                })
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

#[test]
fn values_a_form_reads_whole_meet_the_depth_limit_where_the_reply_does() {
    let mut verdicts = Vec::new();
    // Brackets and escaped quotes in strings before the deep part do not count.
    // A number out of range before it is an error at that number's place.
    let firsts = ["", r#""]]]","#, r#""\"]","#, "1e999,"];
    for (depth, first) in (120..=131).flat_map(|d| firsts.map(|first| (d, first))) {
        let inner = depth - 1;
        let value = format!("[{first}{}1{}]", "[".repeat(inner), "]".repeat(inner));
        let reply = format!(r#"{{"action":"accept","content":{{"note":"hi","other":{value}}}}}"#);
        let reference = reference_parse::<Keeps>(&reply);
        let whole = ElicitResult::<Keeps>::from_json(&reply);
        assert_eq!(
            format!("{whole:?}"),
            format!("{reference:?}"),
            "depth {depth}"
        );
        if let Some(fast) = fast_pass::<Keeps>(&reply) {
            let reference = reference.as_ref().map(|r| format!("{r:?}"));
            assert_eq!(Ok(format!("{fast:?}")), reference, "depth {depth}");
        }
        if let Ok(ElicitResult::Accept(keeps)) = &reference {
            assert_eq!(keeps.note, "hi");
            assert_eq!(keeps.nesting, Some(depth as u32));
        }
        verdicts.push(reference.is_ok());
    }
    // The reply holds 128 levels with a value of 126: two for the envelope and the content.
    let within = [true, true, true, false];
    assert_eq!(verdicts, [[within; 6], [[false; 4]; 6]].concat().concat());
}
