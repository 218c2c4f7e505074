//! `RequestedSchema::builder()`: every kind built without struct literals, the wire form it
//! writes, and the parser's refusals at `build()`.

use elicit_core::ProtocolVersion;
use elicit_core::schema::{Field, Format, Kind, RequestedSchema};
use serde_json::json;

#[test]
fn every_kind_writes_the_wire_form_the_parser_reads() {
    let schema = RequestedSchema::builder()
        .field(
            Field::string("name")
                .title("Name")
                .description("Your full name")
                .min_length(1)
                .max_length(32)
                .required(),
        )
        .field(
            Field::string("email")
                .format(Format::Email)
                .default("a@b.co"),
        )
        .field(
            Field::integer("party_size")
                .title("Party size")
                .range(1, 12)
                .default(2)
                .required(),
        )
        .field(Field::number("ratio").min_f64(0.0).max_f64(1.5))
        .field(Field::boolean("agree").default(false))
        .field(Field::select("repo", ["api", "web"]).default("web"))
        .field(Field::titled_select(
            "plan",
            [("free", "Free"), ("team", "Team")],
        ))
        .field(
            Field::multi_select("tags", ["x", "y", "z"])
                .min_items(1)
                .max_items(2)
                .default(["x"]),
        )
        .field(Field::multi_select(
            "labels",
            [("bug", "Bug"), ("docs", "Docs")],
        ))
        .build()
        .unwrap();
    let wire = serde_json::to_value(&schema).unwrap();
    let expected = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Your full name",
                     "minLength": 1, "maxLength": 32},
            "email": {"type": "string", "format": "email", "default": "a@b.co"},
            "party_size": {"type": "integer", "title": "Party size", "minimum": 1, "maximum": 12,
                           "default": 2},
            "ratio": {"type": "number", "minimum": 0, "maximum": 1.5},
            "agree": {"type": "boolean", "default": false},
            "repo": {"type": "string", "enum": ["api", "web"], "default": "web"},
            "plan": {"type": "string", "oneOf": [{"const": "free", "title": "Free"},
                                                 {"const": "team", "title": "Team"}]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y", "z"]},
                     "minItems": 1, "maxItems": 2, "default": ["x"]},
            "labels": {"type": "array", "items": {"anyOf": [{"const": "bug", "title": "Bug"},
                                                            {"const": "docs", "title": "Docs"}]}}
        },
        "required": ["name", "party_size"]
    });
    assert_eq!(wire, expected);
    // The order built is the order sent, whatever order a JSON map keeps.
    let names: Vec<&str> = schema
        .properties()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "name",
            "email",
            "party_size",
            "ratio",
            "agree",
            "repo",
            "plan",
            "tags",
            "labels"
        ]
    );
    // Its wire form reads back to the same wire form, and the schema validates replies.
    let back = RequestedSchema::from_value(wire.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), wire);
    let ok =
        json!({"action": "accept", "content": {"name": "Ada", "party_size": 3, "tags": ["y"]}});
    assert!(schema.parse_reply_json(&ok.to_string()).is_ok());
    let bad = json!({"action": "accept", "content": {"name": "", "party_size": 13, "repo": "x"}});
    let e = schema.parse_reply_json(&bad.to_string()).unwrap_err();
    let named: Vec<_> = e.violations().iter().filter_map(|v| v.property()).collect();
    assert_eq!(named, ["name", "party_size", "repo"]);
    assert!(matches!(schema.properties()[5].kind, Kind::Select(_)));
    assert!(schema.lint().is_empty(), "{:?}", schema.lint());
}

#[test]
fn build_refuses_what_the_parser_refuses_naming_the_property() {
    let cases = [
        (
            RequestedSchema::builder().field(Field::integer("n").range(5, 1)),
            "n",
        ),
        (
            RequestedSchema::builder().field(Field::string("s").min_length(4).max_length(2)),
            "s",
        ),
        (
            RequestedSchema::builder().field(Field::select("c", ["a", "a"])),
            "c",
        ),
        (
            RequestedSchema::builder().field(Field::select("c", Vec::<String>::new())),
            "c",
        ),
        (
            RequestedSchema::builder().field(Field::number("f").min_f64(f64::NAN)),
            "f",
        ),
        (
            RequestedSchema::builder()
                .field(Field::multi_select("m", ["a"]).min_items(2).max_items(1)),
            "m",
        ),
        (
            RequestedSchema::builder()
                .field(Field::boolean("twice"))
                .field(Field::string("twice")),
            "twice",
        ),
    ];
    for (builder, property) in cases {
        let e = builder.build().expect_err(property);
        assert_eq!(e.property_name(), Some(property), "{e}");
    }
}

#[test]
fn options_of_the_whole_form() {
    let schema = RequestedSchema::builder()
        .field(Field::string("a"))
        .deny_unknown(true)
        .dialect("https://json-schema.org/draft/2020-12/schema")
        .build()
        .unwrap();
    assert!(schema.denies_unknown());
    assert_eq!(
        schema.dialect(),
        Some("https://json-schema.org/draft/2020-12/schema")
    );
    let extra = json!({"action": "accept", "content": {"a": "x", "b": 1}}).to_string();
    assert!(schema.parse_reply_json(&extra).is_err());
    // A default that breaks its own rules is an annotation, as the parser reads it: linted and
    // never filled in.
    let odd = RequestedSchema::builder()
        .field(Field::select("c", ["a"]).default("b"))
        .build()
        .unwrap();
    assert_eq!(odd.lint().len(), 1);
    assert_eq!(odd.lint()[0].property.as_deref(), Some("c"));
    // An empty builder is an empty form, which the parser reads too.
    let empty = RequestedSchema::builder().build().unwrap();
    assert!(empty.properties().is_empty());
    // Titled choices are written down for 2025-06-18 like any runtime schema.
    let titled = RequestedSchema::builder()
        .field(Field::titled_select(
            "plan",
            [("free", "Free"), ("team", "Team")],
        ))
        .build()
        .unwrap();
    let old =
        serde_json::to_value(titled.for_version(ProtocolVersion::V2025_06_18).unwrap()).unwrap();
    assert_eq!(
        old["properties"]["plan"]["enumNames"],
        json!(["Free", "Team"])
    );
}

#[test]
fn bounds_can_be_written_into_descriptions() {
    let schema = RequestedSchema::builder()
        .field(
            Field::integer("party_size")
                .description("How many of you")
                .range(1, 12),
        )
        .field(Field::string("note").max_length(200))
        .field(Field::multi_select("extras", ["a", "b", "c"]).max_items(2))
        .field(Field::boolean("ok"))
        .build()
        .unwrap();
    // A runtime schema is sent as built unless asked.
    assert_eq!(
        schema.properties()[0].description.as_deref(),
        Some("How many of you")
    );
    let hinted = schema.with_bound_hints();
    let sent = serde_json::to_value(&hinted).unwrap();
    let descriptions: Vec<Option<&str>> = ["party_size", "note", "extras", "ok"]
        .iter()
        .map(|name| sent["properties"][name]["description"].as_str())
        .collect();
    assert_eq!(
        descriptions,
        [
            Some("How many of you (1–12, a whole number)"),
            Some("At most 200 characters"),
            Some("Choose at most 2"),
            None
        ]
    );
    // The hint is joined only on the wire: the model keeps the description as given.
    assert_eq!(
        hinted.properties()[0].description.as_deref(),
        Some("How many of you")
    );
    assert_eq!(hinted.properties()[1].description, None);
}

/// The property limit is checked before any field is read: a form of exactly the limit is
/// built, one more is refused. A repeated name is found however many come before it.
#[test]
fn the_property_limit_and_duplicate_names() {
    let fields = |n: usize| {
        (0..n).fold(RequestedSchema::builder(), |b, i| {
            b.field(Field::string(format!("f{i}")))
        })
    };
    let limits = elicit_core::Limits::default().with_max_properties(3);
    assert_eq!(fields(3).build_with(&limits).unwrap().properties().len(), 3);
    let e = fields(4).build_with(&limits).unwrap_err();
    assert!(
        e.to_string().contains("4 properties, over the limit of 3"),
        "{e}"
    );
    // Ten thousand distinct names, then one repeated at the end.
    let unlimited = elicit_core::Limits::UNLIMITED;
    let many = fields(10_000).field(Field::string("f0"));
    let e = many.build_with(&unlimited).unwrap_err();
    assert_eq!(e.property_name(), Some("f0"), "{e}");
    assert!(e.message().contains("defined twice"), "{e}");
}

#[test]
fn a_default_that_breaks_its_field_is_linted_and_never_filled_in() {
    for field in [
        Field::select("f", ["a", "b"]).default("c").into(),
        Field::multi_select("f", ["a", "b"]).default(["c"]).into(),
        Field::multi_select("f", ["a", "b"])
            .max_items(1)
            .default(["a", "b"])
            .into(),
    ] {
        let field: Field = field;
        let schema = RequestedSchema::builder().field(field).build().unwrap();
        assert_eq!(schema.lint().len(), 1, "{:?}", schema.lint());
        assert_eq!(schema.lint()[0].property.as_deref(), Some("f"));
        let read = schema.parse_reply_json(r#"{"action":"accept","content":{}}"#);
        let Ok(elicit_core::ElicitResult::Accept(content)) = read else {
            panic!("{read:?}")
        };
        assert_eq!(content.get("f"), None, "not filled in");
    }
}

/// A Rust set's field refuses the same choice twice without sending `uniqueItems`. A proxy
/// that builds a form from the derived form's properties keeps that rule: a reply the derived
/// form refuses, the built one refuses too.
#[test]
fn a_set_fields_rule_survives_a_rebuild() {
    #[derive(serde::Deserialize, schemars::JsonSchema, elicit_core::Elicit)]
    #[allow(dead_code)]
    /// Labels
    struct Labels {
        labels: std::collections::BTreeSet<Label>,
    }
    #[derive(
        serde::Deserialize,
        schemars::JsonSchema,
        elicit_core::Elicit,
        PartialEq,
        Eq,
        PartialOrd,
        Ord,
    )]
    enum Label {
        Bug,
        Docs,
    }
    use elicit_core::Elicit as _;

    let derived = Labels::requested_schema();
    let rebuilt = derived
        .properties()
        .iter()
        .cloned()
        .fold(RequestedSchema::builder(), |b, p| b.field(p))
        .build()
        .unwrap();
    let reply = json!({"action": "accept", "content": {"labels": ["Bug", "Bug"]}});
    for schema in [derived, &rebuilt] {
        assert!(matches!(
            &schema.properties()[0].kind,
            Kind::MultiSelect(rules) if !rules.unique
        ));
        let error = schema.parse_reply_value(&reply).unwrap_err();
        assert!(error.to_string().contains("labels"), "{error}");
    }
    assert_eq!(
        serde_json::to_value(&rebuilt).unwrap(),
        serde_json::to_value(derived).unwrap()
    );
}
