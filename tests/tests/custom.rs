//! Rules MCP cannot express: `#[elicit(validate = ..)]` on fields and structs, and a form's own
//! `Deserialize` refusing a value its schema allows.

use elicit_core::schema::Bound;
use elicit_core::{Elicit, ElicitResult, Invalid, Location, Rule};
use schemars::JsonSchema;
use serde::Deserialize;

fn five_digits(zip: &str) -> Result<(), String> {
    if zip.len() == 5 && zip.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err("must be five digits".into())
    }
}

mod rules {
    pub fn not_reserved(name: &str) -> Result<(), &'static str> {
        if name == "admin" {
            Err("is reserved")
        } else {
            Ok(())
        }
    }
}

fn nights_in_order(stay: &Stay) -> Result<(), Invalid> {
    let mut invalid = Invalid::new();
    if stay.check_out <= stay.check_in {
        invalid.push_field("checkOut", "must be after checkIn");
    }
    if stay.check_out.saturating_sub(stay.check_in) > 14 {
        invalid.push_form("stays are at most 14 nights");
    }
    if invalid.is_empty() {
        Ok(())
    } else {
        Err(invalid)
    }
}

/// Book a stay. Zip codes are five digits; the user name `admin` is reserved; stays run at most
/// 14 nights. (The client never sees these rules in the schema, so the message says them.)
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "camelCase")]
#[elicit(validate = nights_in_order)]
struct Stay {
    #[elicit(validate = "rules::not_reserved")]
    user_name: String,
    #[elicit(validate = five_digits)]
    zip: String,
    #[schemars(range(min = 1, max = 365))]
    check_in: u16,
    #[schemars(range(min = 1, max = 365))]
    check_out: u16,
}

fn reply(user: &str, zip: &str, check_in: u16, check_out: u16) -> String {
    serde_json::json!({"action": "accept", "content": {
        "userName": user, "zip": zip, "checkIn": check_in, "checkOut": check_out
    }})
    .to_string()
}

#[test]
fn passing_rules_accept() {
    let r = ElicitResult::<Stay>::from_json(&reply("ada", "94105", 10, 12)).unwrap();
    assert_eq!(r.accepted().unwrap().zip, "94105");
}

#[test]
fn failures_come_back_with_schema_style_errors_named_by_wire_field() {
    let e = ElicitResult::<Stay>::from_json(&reply("admin", "9410", 10, 30)).unwrap_err();
    let got: Vec<(&Location, &Rule)> = e
        .violations()
        .iter()
        .map(|v| (v.location(), v.rule()))
        .collect();
    assert_eq!(
        got,
        [
            (
                &Location::Content,
                &Rule::Custom("stays are at most 14 nights".into())
            ),
            (
                &Location::Property("userName".into()),
                &Rule::Custom("is reserved".into())
            ),
            (
                &Location::Property("zip".into()),
                &Rule::Custom("must be five digits".into())
            ),
        ]
    );
    assert!(e.is_content_error());
    assert!(e.to_string().contains("`zip` must be five digits"), "{e}");
    let e = ElicitResult::<Stay>::from_json(&reply("ada", "94105", 12, 10)).unwrap_err();
    assert_eq!(e.violations()[0].property(), Some("checkOut"));
}

#[test]
fn rules_run_after_the_schema_and_on_every_entry_point() {
    // Schema violations come first; the custom rules see only a valid, built value.
    let e = ElicitResult::<Stay>::from_json(&reply("admin", "9410", 0, 30)).unwrap_err();
    assert_eq!(e.violations().len(), 1);
    assert_eq!(e.violations()[0].rule(), &Rule::Minimum(Bound::Int(1)));
    // serde_json::from_str and the reader of a value run them too.
    let e = serde_json::from_str::<ElicitResult<Stay>>(&reply("admin", "94105", 1, 2)).unwrap_err();
    assert!(e.to_string().contains("is reserved"), "{e}");
    let value = serde_json::from_str::<serde_json::Value>(&reply("admin", "94105", 1, 2)).unwrap();
    assert!(ElicitResult::<Stay>::from_value(&value).is_err());
    // Decline and cancel have no content to check.
    assert!(matches!(
        ElicitResult::<Stay>::from_json(r#"{"action":"decline"}"#),
        Ok(ElicitResult::Decline)
    ));
}

#[test]
fn rules_never_reach_the_schema() {
    let schema = serde_json::to_string(Stay::requested_schema()).unwrap();
    assert!(
        !schema.contains("five") && !schema.contains("pattern"),
        "{schema}"
    );
    elicit_tests::assert_type_conforms::<Stay>();
}

/// How many in your party? (Tables seat two.)
#[derive(Debug, PartialEq, JsonSchema, Elicit)]
struct Party {
    name: String,
    seats: u32,
}

/// Seats, read by `Party`'s own reader: an odd number, which the schema (an integer) allows, is
/// refused as it is read.
struct Even(u32);

impl<'de> Deserialize<'de> for Even {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Even, D::Error> {
        match u32::deserialize(d)? {
            n if n % 2 == 0 => Ok(Even(n)),
            _ => Err(serde::de::Error::custom("must be even")),
        }
    }
}

impl<'de> Deserialize<'de> for Party {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Party, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = Party;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a party")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Party, A::Error> {
                let (mut name, mut seats) = (None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "name" => name = Some(map.next_value()?),
                        "seats" => seats = Some(map.next_value::<Even>()?.0),
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                let missing = serde::de::Error::missing_field;
                Ok(Party {
                    name: name.ok_or_else(|| missing("name"))?,
                    seats: seats.ok_or_else(|| missing("seats"))?,
                })
            }
        }
        d.deserialize_map(Fields)
    }
}

#[test]
fn a_value_the_schema_allows_and_the_type_refuses_is_named_by_its_property() {
    let reply = r#"{"action":"accept","content":{"name":"Ada","seats":3}}"#;
    let value: serde_json::Value = serde_json::from_str(reply).unwrap();
    for error in [
        ElicitResult::<Party>::from_json(reply).unwrap_err(),
        ElicitResult::<Party>::from_value(&value).unwrap_err(),
    ] {
        let [violation] = error.violations() else {
            panic!("{error}");
        };
        assert_eq!(violation.location(), &Location::Property("seats".into()));
        assert!(
            matches!(violation.rule(), Rule::Deserialize(m) if m.contains("must be even")),
            "{error}"
        );
    }
    let read = ElicitResult::<Party>::from_json(&reply.replace('3', "4")).unwrap();
    let expected = Party {
        name: "Ada".into(),
        seats: 4,
    };
    assert_eq!(read, ElicitResult::Accept(expected));
}
