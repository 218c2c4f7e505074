//! Protocol versions: schemas per version, down-levelling, defaults, formats through real types,
//! form and URL requests, and the 2026-07-28 multi-round-trip, each checked against the
//! official definitions of its version.

use std::collections::BTreeSet;

use elicit_core::{
    Elicit, ElicitResult, ElicitationComplete, Email, InputRequests, InputRequired,
    ProtocolVersion, Rule, UrlElicitResult, UrlElicitationRequired, UrlRequest, UrlRequestError,
};
use elicit_tests::{
    assert_conforms, assert_snapshot, assert_sorted_snapshot, assert_type_conforms, official_errors,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use ProtocolVersion::{V2025_06_18, V2025_11_25, V2026_07_28};

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    Elicit,
)]
#[serde(rename_all = "lowercase")]
enum Seat {
    /// Inside, by the window
    Indoor,
    /// On the terrace
    Outdoor,
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    Elicit,
)]
enum Extra {
    Cake,
    Candles,
    Flowers,
}

fn default_guest() -> String {
    "Guest".into()
}
fn default_tip() -> f64 {
    12.5
}
fn default_party() -> u8 {
    2
}
fn default_seat() -> Seat {
    Seat::Outdoor
}
fn default_extras() -> Vec<Extra> {
    vec![Extra::Cake]
}

/// Every field kind, each with and without a default, and each real format type.
#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
struct Reservation {
    /// Who is coming
    #[schemars(title = "Name", length(min = 1, max = 50))]
    name: String,
    #[serde(default = "default_guest")]
    nickname: String,
    #[schemars(range(min = 1, max = 12))]
    #[serde(default = "default_party")]
    party_size: u8,
    #[serde(default = "default_tip")]
    tip_percent: f64,
    #[serde(default)]
    newsletter: bool,
    seat: Seat,
    #[serde(default = "default_seat")]
    preferred_seat: Seat,
    #[schemars(length(max = 2))]
    extras: BTreeSet<Extra>,
    #[serde(default = "default_extras")]
    usual_extras: Vec<Extra>,
    contact: Email,
    day: chrono::NaiveDate,
    arrival: chrono::DateTime<chrono::Utc>,
    local_arrival: chrono::DateTime<chrono::FixedOffset>,
    also_day: elicit_core::time::Date,
    also_arrival: elicit_core::time::OffsetDateTime,
    menu: url::Url,
    notes: Option<String>,
}

/// What 2025-06-18 can carry: no multi-select.
#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
struct Simple {
    name: String,
    #[serde(default = "default_guest")]
    nickname: String,
    #[serde(default)]
    newsletter: bool,
    #[serde(default = "default_party")]
    party_size: u8,
    seat: Seat,
    #[serde(default = "default_seat")]
    preferred_seat: Seat,
    contact: Email,
    day: chrono::NaiveDate,
}

fn wire(schema: &elicit_core::schema::RequestedSchema) -> Value {
    serde_json::to_value(schema).unwrap()
}

#[test]
fn protocol_versions_parse_print_and_order() {
    for (text, version) in [
        ("2025-06-18", V2025_06_18),
        ("2025-11-25", V2025_11_25),
        ("2026-07-28", V2026_07_28),
    ] {
        assert_eq!(text.parse::<ProtocolVersion>().unwrap(), version);
        assert_eq!(version.to_string(), text);
    }
    for bad in ["2025-03-26", "2025-6-18", "latest", "", " 2025-06-18"] {
        let e = bad.parse::<ProtocolVersion>().unwrap_err();
        assert!(e.to_string().contains(&format!("{bad:?}")), "{e}");
        assert_eq!(e.as_str(), bad);
    }
    assert!(V2025_06_18 < V2025_11_25 && V2025_11_25 < V2026_07_28);
    assert_eq!(ProtocolVersion::LATEST, V2026_07_28);
    assert_eq!(
        ProtocolVersion::LATEST,
        *ProtocolVersion::ALL.iter().max().unwrap()
    );
}

#[test]
fn the_newest_schema_is_the_default_and_each_is_cached() {
    assert!(std::ptr::eq(
        Reservation::requested_schema(),
        Reservation::requested_schema_for(V2026_07_28).unwrap()
    ));
    for version in [V2025_11_25, V2026_07_28] {
        let a = Reservation::requested_schema_for(version).unwrap();
        let b = Reservation::requested_schema_for(version).unwrap();
        assert!(std::ptr::eq(a, b), "{version}");
    }
    assert_eq!(
        wire(Reservation::requested_schema_for(V2025_11_25).unwrap()),
        wire(Reservation::requested_schema())
    );
}

#[test]
fn every_field_kind_on_the_newer_versions() {
    let schema = wire(Reservation::requested_schema());
    let p = &schema["properties"];
    assert_eq!(
        p["name"],
        json!({"type": "string", "title": "Name", "description": "Who is coming (1–50 characters)", "minLength": 1, "maxLength": 50})
    );
    assert_eq!(
        p["nickname"],
        json!({"type": "string", "title": "Nickname", "default": "Guest"})
    );
    assert_eq!(
        p["party_size"],
        json!({"type": "integer", "title": "Party size", "description": "1–12, a whole number", "minimum": 1, "maximum": 12, "default": 2})
    );
    assert_eq!(
        p["tip_percent"],
        json!({"type": "number", "title": "Tip percent", "default": 12.5})
    );
    assert_eq!(
        p["newsletter"],
        json!({"type": "boolean", "title": "Newsletter", "default": false})
    );
    assert_eq!(
        p["seat"],
        json!({"type": "string", "title": "Seat", "oneOf": [
            {"const": "indoor", "title": "Inside, by the window"},
            {"const": "outdoor", "title": "On the terrace"}
        ]})
    );
    assert_eq!(p["preferred_seat"]["default"], "outdoor");
    assert_eq!(
        p["extras"],
        json!({"type": "array", "title": "Extras", "description": "Choose at most 2", "maxItems": 2, "items": {"type": "string", "enum": ["Cake", "Candles", "Flowers"]}})
    );
    assert_eq!(p["usual_extras"]["default"], json!(["Cake"]));
    assert_eq!(
        p["contact"],
        json!({"type": "string", "title": "Contact", "format": "email"})
    );
    for (date, title) in [("day", "Day"), ("also_day", "Also day")] {
        assert_eq!(
            p[date],
            json!({"type": "string", "title": title, "format": "date"}),
            "{date}"
        );
    }
    for (date_time, title) in [
        ("arrival", "Arrival"),
        ("local_arrival", "Local arrival"),
        ("also_arrival", "Also arrival"),
    ] {
        assert_eq!(
            p[date_time],
            json!({"type": "string", "title": title, "format": "date-time"}),
            "{date_time}"
        );
    }
    assert_eq!(
        p["menu"],
        json!({"type": "string", "title": "Menu", "format": "uri"})
    );
    assert!(schema.get("$schema").is_none(), "no version sends $schema");
}

#[test]
fn down_levelling_to_2025_06_18() {
    // A multi-select, which 2025-06-18 cannot hold, goes as one box per choice; its default
    // list ticks its boxes.
    let reservation = wire(Reservation::requested_schema_for(V2025_06_18).unwrap());
    let p = &reservation["properties"];
    assert!(p.get("extras").is_none());
    assert_eq!(
        p["extras__Cake"],
        json!({"type": "boolean", "title": "Extras: Cake", "description": "Choose at most 2"})
    );
    assert_eq!(
        p["extras__Candles"],
        json!({"type": "boolean", "title": "Extras: Candles"})
    );
    assert_eq!(p["usual_extras__Cake"]["default"], true);
    assert_eq!(p["usual_extras__Flowers"]["default"], false);
    assert!(Reservation::form_request_for(V2025_06_18).is_ok());

    let old = wire(Simple::requested_schema_for(V2025_06_18).unwrap());
    let p = &old["properties"];
    assert_eq!(
        p["seat"],
        json!({"type": "string", "title": "Seat", "enum": ["indoor", "outdoor"], "enumNames": ["Inside, by the window", "On the terrace"]})
    );
    assert_eq!(
        p["newsletter"],
        json!({"type": "boolean", "title": "Newsletter", "default": false}),
        "booleans keep their default"
    );
    for key in ["nickname", "party_size", "preferred_seat"] {
        assert!(p[key].get("default").is_none(), "{key}: {}", p[key]);
    }
    assert!(old.get("$schema").is_none());
}

#[test]
fn schemas_conform_on_every_version() {
    assert_type_conforms::<Reservation>();
    assert_type_conforms::<Simple>();
    assert_type_conforms::<Seat2>();
    let mut checked = 0;
    for version in ProtocolVersion::ALL {
        for schema in [
            Reservation::requested_schema_for(version),
            Simple::requested_schema_for(version),
        ]
        .into_iter()
        .flatten()
        {
            assert_conforms(version, &wire(schema));
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

/// A form of one titled choice and one untitled, for the legacy form.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Seat2 {
    seat: Seat,
    extra: Option<Extra>,
}

#[test]
fn snapshots_per_version() {
    // 2026-07-28 writes the same schema as 2025-11-25: what changed is how it travels, a
    // request of its own before, an entry of `inputRequests` on it. Each is pinned.
    assert_eq!(
        Reservation::requested_schema_for(V2026_07_28).unwrap(),
        Reservation::requested_schema_for(V2025_11_25).unwrap()
    );
    assert_snapshot(
        "reservation-2025-11-25",
        Reservation::requested_schema_for(V2025_11_25).unwrap(),
    );
    assert_sorted_snapshot(
        "reservation-request-2025-11-25",
        &Reservation::form_request_for(V2025_11_25)
            .unwrap()
            .to_jsonrpc(1)
            .unwrap(),
    );
    let mut requests = InputRequests::new();
    requests.elicit::<Reservation>("reservation");
    assert_sorted_snapshot(
        "reservation-input-required-2026-07-28",
        &InputRequired::new(requests)
            .with_request_state("state")
            .to_value()
            .unwrap(),
    );
    assert_snapshot(
        "simple-2025-06-18",
        Simple::requested_schema_for(V2025_06_18).unwrap(),
    );
}

fn full_reply() -> Value {
    json!({
        "name": "Ada",
        "seat": "indoor",
        "extras": ["Candles"],
        "contact": "ada@example.com",
        "day": "2026-12-24",
        "arrival": "2026-12-24T19:30:00Z",
        "local_arrival": "2026-12-24T20:30:00+01:00",
        "also_day": "2026-12-24",
        "also_arrival": "2026-12-24T20:30:00.5+01:00",
        "menu": "https://example.com/menu?lang=en",
    })
}

#[test]
fn absent_fields_take_their_defaults_and_formats_parse_into_real_types() {
    let reply = json!({"action": "accept", "content": full_reply()});
    let r = ElicitResult::<Reservation>::from_value(&reply)
        .unwrap()
        .accepted()
        .unwrap();
    assert_eq!(r.nickname, "Guest");
    assert_eq!(r.party_size, 2);
    assert_eq!(r.tip_percent, 12.5);
    assert!(!r.newsletter);
    assert_eq!(r.preferred_seat, Seat::Outdoor);
    assert_eq!(r.usual_extras, [Extra::Cake]);
    assert_eq!(r.contact.as_str(), "ada@example.com");
    assert_eq!(
        r.day,
        chrono::NaiveDate::from_ymd_opt(2026, 12, 24).unwrap()
    );
    assert_eq!(r.arrival.to_rfc3339(), "2026-12-24T19:30:00+00:00");
    assert_eq!(r.local_arrival.offset().local_minus_utc(), 3600);
    assert_eq!(r.also_day.to_string(), "2026-12-24");
    assert_eq!(r.also_arrival.0.millisecond(), 500);
    assert_eq!(r.menu.host_str(), Some("example.com"));
    // Written back, it parses to the same value.
    let wire = serde_json::to_string(&ElicitResult::Accept(&r)).unwrap();
    assert_eq!(
        ElicitResult::<Reservation>::from_json(&wire)
            .unwrap()
            .accepted()
            .unwrap(),
        r
    );
}

#[test]
fn formats_are_parsed_strictly() {
    use elicit_core::schema::Format::*;
    for (key, value, format) in [
        ("contact", "ada(at)example.com", Email),
        ("day", "2026-2-30", Date),
        ("day", "2026-02-30", Date),
        ("day", "+2026-12-24", Date),
        ("arrival", "2026-12-24 19:30:00Z", DateTime),
        ("arrival", "2026-12-24T19:30:00", DateTime),
        ("local_arrival", "2026-12-24T19:30", DateTime),
        ("also_day", "24/12/2026", Date),
        ("also_arrival", "2026-12-24T25:00:00Z", DateTime),
        ("menu", "example.com/menu", Uri),
        ("menu", "https://exa mple.com", Uri),
    ] {
        let mut content = full_reply();
        content[key] = json!(value);
        let e = ElicitResult::<Reservation>::from_value(
            &json!({"action": "accept", "content": content}),
        )
        .unwrap_err();
        assert_eq!(e.violations().len(), 1, "{key}={value}: {e}");
        assert_eq!(e.violations()[0].property(), Some(key));
        assert_eq!(
            e.violations()[0].rule(),
            &Rule::Format(format),
            "{key}={value}"
        );
    }
}

#[test]
fn format_types_check_outside_a_reply_too() {
    assert!(serde_json::from_value::<Email>(json!("nope")).is_err());
    assert_eq!(
        serde_json::from_value::<Email>(json!("a@b.c"))
            .unwrap()
            .to_string(),
        "a@b.c"
    );
    assert!(serde_json::from_value::<elicit_core::time::Date>(json!("2026-02-29")).is_err());
    assert!(
        serde_json::from_value::<elicit_core::time::OffsetDateTime>(json!("2026-02-28T10:00:00"))
            .is_err()
    );
    let t: elicit_core::time::OffsetDateTime =
        serde_json::from_value(json!("2026-02-28T10:00:00-05:00")).unwrap();
    assert_eq!(
        serde_json::to_value(t).unwrap(),
        json!("2026-02-28T10:00:00-05:00")
    );
    assert!(
        Email::new("x")
            .unwrap_err()
            .to_string()
            .contains("email address")
    );
}

#[test]
fn multi_select_items_duplicates_and_counts() {
    for (extras, rule) in [
        (json!(["Cake", "Cake"]), Some(Rule::UniqueItems)),
        (
            json!(["Cake", "Candles", "Flowers"]),
            Some(Rule::MaxItems(2)),
        ),
        (json!(["cake"]), Some(Rule::NotAChoice)),
        (json!([]), None),
    ] {
        let mut content = full_reply();
        content["extras"] = extras.clone();
        content["usual_extras"] = json!(["Candles", "Cake"]); // a Vec keeps the order chosen
        let r = ElicitResult::<Reservation>::from_value(
            &json!({"action": "accept", "content": content}),
        );
        match rule {
            None => assert!(r.is_ok(), "{extras}: {r:?}"),
            Some(rule) => assert_eq!(r.unwrap_err().violations()[0].rule(), &rule, "{extras}"),
        }
    }
    // A Vec refuses a repeat as a set does.
    let mut content = full_reply();
    content["usual_extras"] = json!(["Cake", "Cake"]);
    let r =
        ElicitResult::<Reservation>::from_value(&json!({"action": "accept", "content": content}));
    let error = r.unwrap_err();
    assert_eq!(error.violations()[0].rule(), &Rule::UniqueItems);
    assert_eq!(error.violations()[0].property(), Some("usual_extras"));
}

fn jsonrpc_form(version: ProtocolVersion, params: Value) -> Value {
    match version {
        V2025_11_25 => {
            json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params})
        }
        _ => json!({"method": "elicitation/create", "params": params}),
    }
}

#[test]
fn form_requests_for_every_version() {
    for version in ProtocolVersion::ALL {
        let request = Simple::form_request_for(version).unwrap();
        let params = request.to_value();
        assert_eq!(
            params.get("mode").is_some(),
            version >= V2025_11_25,
            "{version}"
        );
        assert_eq!(
            params["message"],
            "What 2025-06-18 can carry: no multi-select."
        );
        let errors = official_errors(
            version,
            "ElicitRequest",
            &jsonrpc_form(version, params.clone()),
        );
        assert!(errors.is_empty(), "{version}: {errors:?}");
    }
    let framed = Simple::form_request_for(V2025_11_25)
        .unwrap()
        .to_jsonrpc(7)
        .unwrap();
    assert_eq!(framed["id"], 7);
    assert!(official_errors(V2025_11_25, "ElicitRequest", &framed).is_empty());
    let framed = Simple::form_request_for(V2025_06_18)
        .unwrap()
        .to_jsonrpc("req-1")
        .unwrap();
    assert_eq!(framed["id"], "req-1");
    // 2026-07-28 has no elicitation/create request.
    assert!(Simple::form_request().to_jsonrpc(1).is_err());
}

#[test]
fn url_mode_requests() {
    let err =
        UrlRequest::new(V2025_06_18, "Sign in", "https://example.com/login", "e1").unwrap_err();
    assert_eq!(
        err,
        UrlRequestError::Unsupported {
            feature: "URL mode elicitation",
            version: V2025_06_18
        }
    );
    assert!(matches!(
        UrlRequest::new(V2025_11_25, "m", "/relative", "e1"),
        Err(UrlRequestError::InvalidUrl(_))
    ));
    assert!(matches!(
        UrlRequest::new(V2025_11_25, "m", "https://x.example", ""),
        Err(UrlRequestError::EmptyElicitationId)
    ));

    let old = UrlRequest::new(V2025_11_25, "Sign in", "https://example.com/login", "e1").unwrap();
    assert_eq!(
        old.to_value(),
        json!({"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e1"})
    );
    assert!(official_errors(V2025_11_25, "ElicitRequest", &old.to_jsonrpc(3).unwrap()).is_empty());
    assert!(official_errors(V2025_11_25, "ElicitRequestURLParams", &old.to_value()).is_empty());

    let new = UrlRequest::new(V2026_07_28, "Sign in", "https://example.com/login", "e1").unwrap();
    assert_eq!(
        new.to_value(),
        json!({"mode": "url", "message": "Sign in", "url": "https://example.com/login"})
    );
    assert!(
        official_errors(
            V2026_07_28,
            "ElicitRequest",
            &json!({"method": "elicitation/create", "params": new.to_value()})
        )
        .is_empty()
    );
}

#[test]
fn url_mode_results_carry_no_content() {
    for (reply, expected) in [
        (r#"{"action":"accept"}"#, UrlElicitResult::Accept),
        (
            r#"{"action":"accept","content":{"password":"hunter2"}}"#,
            UrlElicitResult::Accept,
        ),
        (
            r#"{"content":"garbage","action":"accept"}"#,
            UrlElicitResult::Accept,
        ),
        (
            r#"{"action":"decline","content":[1]}"#,
            UrlElicitResult::Decline,
        ),
        (r#"{"action":"cancel"}"#, UrlElicitResult::Cancel),
    ] {
        assert_eq!(
            UrlElicitResult::from_json(reply).unwrap(),
            expected,
            "{reply}"
        );
        assert_eq!(
            serde_json::from_str::<UrlElicitResult>(reply).unwrap(),
            expected,
            "{reply}"
        );
    }
    for bad in [
        r#"{"action":"ok"}"#,
        r#"{}"#,
        "[",
        r#"{"action":"accept","action":"decline"}"#,
    ] {
        let e = UrlElicitResult::from_json(bad).unwrap_err();
        assert!(!e.violations().is_empty(), "{bad}");
        assert!(
            serde_json::from_str::<UrlElicitResult>(bad).is_err(),
            "{bad}"
        );
    }
    assert_eq!(
        UrlElicitResult::from_json(r#"{"action":"nope"}"#)
            .unwrap_err()
            .violations()[0]
            .rule(),
        &Rule::ActionInvalid
    );
    let wire = serde_json::to_value(UrlElicitResult::Accept).unwrap();
    assert_eq!(wire, json!({"action": "accept"}));
    for version in ProtocolVersion::ALL {
        assert!(official_errors(version, "ElicitResult", &wire).is_empty());
    }
}

#[test]
fn completion_notification_and_url_required_error_are_2025_11_25_only() {
    let done = ElicitationComplete::new(V2025_11_25, "e1")
        .unwrap()
        .to_jsonrpc();
    assert_eq!(
        done,
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "e1"}})
    );
    assert!(official_errors(V2025_11_25, "ElicitationCompleteNotification", &done).is_empty());
    for version in [V2025_06_18, V2026_07_28] {
        assert!(ElicitationComplete::new(version, "e1").is_err());
        assert!(UrlElicitationRequired::new(version, "m", vec![]).is_err());
    }

    let url = UrlRequest::new(
        V2025_11_25,
        "Authorize",
        "https://example.com/oauth",
        "auth-1",
    )
    .unwrap();
    let required =
        UrlElicitationRequired::new(V2025_11_25, "Authorization needed", vec![url]).unwrap();
    let response = required.to_jsonrpc(9);
    assert_eq!(response["error"]["code"], -32042);
    assert_eq!(
        response["error"]["data"]["elicitations"][0]["elicitationId"],
        "auth-1"
    );
    let errors = official_errors(V2025_11_25, "URLElicitationRequiredError", &response);
    assert!(errors.is_empty(), "{errors:?}");
    let newer = UrlRequest::new(V2026_07_28, "m", "https://example.com", "x").unwrap();
    assert!(UrlElicitationRequired::new(V2025_11_25, "m", vec![newer]).is_err());
}

#[test]
fn results_the_crate_writes_conform() {
    let simple = ElicitResult::<Simple>::from_value(&json!({"action": "accept", "content": {
        "name": "Ada", "seat": "outdoor", "contact": "ada@example.com", "day": "2026-01-02", "party_size": 4
    }}))
    .unwrap();
    let wire = serde_json::to_value(&simple).unwrap();
    for version in ProtocolVersion::ALL {
        assert!(
            official_errors(version, "ElicitResult", &wire).is_empty(),
            "{version}: {wire}"
        );
        for other in [ElicitResult::<Simple>::Decline, ElicitResult::Cancel] {
            assert!(
                official_errors(
                    version,
                    "ElicitResult",
                    &serde_json::to_value(other).unwrap()
                )
                .is_empty()
            );
        }
    }
    // The official files type content numbers as `integer` where the protocol says `number`
    // (see the conformance README): a fractional number is the only thing they refuse.
    let reservation = ElicitResult::<Reservation>::from_value(
        &json!({"action": "accept", "content": full_reply()}),
    )
    .unwrap();
    let wire = serde_json::to_value(&reservation).unwrap();
    assert_eq!(wire["content"]["tip_percent"], 12.5);
    for version in [V2025_11_25, V2026_07_28] {
        let errors = official_errors(version, "ElicitResult", &wire);
        assert!(
            !errors.is_empty() && errors.iter().all(|e| e.ends_with("/content/tip_percent")),
            "{version}: {errors:?}"
        );
        let mut integral = wire.clone();
        integral["content"]["tip_percent"] = json!(12);
        assert!(
            official_errors(version, "ElicitResult", &integral).is_empty(),
            "{version}"
        );
    }
    // Multi-select answers (arrays) exist from 2025-11-25 on.
    let with_array = json!({"action": "accept", "content": {"extras": ["Cake"]}});
    assert!(official_errors(V2025_11_25, "ElicitResult", &with_array).is_empty());
    assert!(official_errors(V2026_07_28, "ElicitResult", &with_array).is_empty());
}

#[test]
fn multi_round_trip_asks_then_reads_by_key() {
    let mut requests = InputRequests::new();
    requests.elicit::<Simple>("who");
    let pay = UrlRequest::new(
        V2026_07_28,
        "Pay the deposit",
        "https://example.com/pay/42",
        "pay-42",
    )
    .unwrap();
    requests.url("pay", &pay);
    assert_eq!(requests.len(), 2);
    let state = "opaque:✓:{\"step\":1}";
    let result = InputRequired::new(requests).with_request_state(state);
    let value = result.to_value().unwrap();
    assert_eq!(value["resultType"], "input_required");
    assert_eq!(value["requestState"], state);
    for key in ["who", "pay"] {
        let entry = &value["inputRequests"][key];
        let errors = official_errors(V2026_07_28, "ElicitRequest", entry);
        assert!(errors.is_empty(), "{key}: {errors:?}");
    }
    assert_eq!(value["inputRequests"]["who"]["params"]["mode"], "form");
    assert_eq!(
        value["inputRequests"]["who"]["params"]["requestedSchema"],
        wire(Simple::requested_schema())
    );
    assert!(
        value["inputRequests"]["pay"]["params"]
            .get("elicitationId")
            .is_none()
    );

    let retry = json!({
        "name": "reserve",
        "inputResponses": {
            "who": {"action": "accept", "content": {"name": "Ada", "seat": "indoor", "contact": "ada@example.com", "day": "2026-03-01"}},
            "pay": {"action": "decline"},
        },
        "requestState": state,
    });
    // Each answer reads as any reply does.
    let who = ElicitResult::<Simple>::from_value(&retry["inputResponses"]["who"])
        .unwrap()
        .accepted()
        .unwrap();
    assert_eq!(who.name, "Ada");
    assert_eq!(
        UrlElicitResult::from_value(&retry["inputResponses"]["pay"]).unwrap(),
        UrlElicitResult::Decline
    );
    let bad = json!({"action": "accept", "content": {"name": 3}});
    let e = ElicitResult::<Simple>::from_value(&bad).unwrap_err();
    assert!(
        e.violations().iter().any(|v| v.property() == Some("name")),
        "{e}"
    );
}
