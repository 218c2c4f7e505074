//! Server-side rules MCP cannot express: `#[elicit(validate = ..)]` on fields and structs.

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
    // serde_json::from_str and the multi-round-trip reader run them too.
    let e = serde_json::from_str::<ElicitResult<Stay>>(&reply("admin", "94105", 1, 2)).unwrap_err();
    assert!(e.to_string().contains("is reserved"), "{e}");
    let params = serde_json::json!({"inputResponses": {"stay": serde_json::from_str::<serde_json::Value>(&reply("admin", "94105", 1, 2)).unwrap()}});
    let responses = elicit_core::InputResponses::from_params(&params).unwrap();
    assert!(responses.elicit::<Stay>("stay").is_err());
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
