//! `Form<T>`: a derived form with choices given per request, read back as `T` against the schema
//! that was sent.

use std::collections::BTreeSet;

use elicit_core::schema::Kind;
use elicit_core::{Elicit, ElicitResult, Form, ProtocolVersion};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Label {
    /// Bug
    Bug,
    /// Docs
    Docs,
    /// Feature
    Feature,
}

/// Open a pull request.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct PullRequest {
    /// Repository
    #[schemars(length(max = 8))]
    repo: String,
    /// Branch
    #[schemars(length(min = 1))]
    branch: String,
    /// Labels
    #[schemars(length(min = 1))]
    labels: BTreeSet<Label>,
    /// Kind
    kind: Option<Label>,
    /// Reviewers
    #[schemars(range(min = 0, max = 5))]
    reviewers: Option<u8>,
}

fn accept(content: serde_json::Value) -> String {
    json!({"action": "accept", "content": content}).to_string()
}

fn refused_property(
    result: Result<ElicitResult<PullRequest>, elicit_core::ElicitError>,
) -> Vec<String> {
    let e = result.expect_err("refused");
    e.violations()
        .iter()
        .filter_map(|v| v.property().map(str::to_owned))
        .collect()
}

#[test]
fn a_string_field_becomes_a_select_of_this_requests_choices() {
    let form = Form::<PullRequest>::new()
        .choices("repo", ["api", "web"])
        .unwrap();
    let sent = serde_json::to_value(form.schema()).unwrap();
    assert_eq!(
        sent["properties"]["repo"],
        json!({"type": "string", "title": "Repo", "description": "Repository", "enum": ["api", "web"]})
    );
    // The rest of the form is T's own.
    assert_eq!(
        sent["properties"]["branch"],
        serde_json::to_value(PullRequest::requested_schema()).unwrap()["properties"]["branch"]
    );
    assert_eq!(
        form.schema().required().collect::<Vec<_>>(),
        ["repo", "branch", "labels"]
    );

    let ok = accept(json!({"repo": "web", "branch": "main", "labels": ["bug"]}));
    let Ok(ElicitResult::Accept(pr)) = form.parse_reply_json(&ok) else {
        panic!("accepted")
    };
    assert_eq!(pr.repo, "web");
    let value: serde_json::Value = serde_json::from_str(&ok).unwrap();
    assert!(matches!(
        form.parse_reply_value(&value),
        Ok(ElicitResult::Accept(_))
    ));
    // A value T could hold, but not a choice of this request.
    let other = accept(json!({"repo": "cli", "branch": "main", "labels": ["bug"]}));
    assert!(
        PullRequest::requested_schema()
            .parse_reply_json(&other)
            .is_ok()
    );
    assert_eq!(refused_property(form.parse_reply_json(&other)), ["repo"]);
    // Another request's choices are that request's.
    let next = Form::<PullRequest>::new().choices("repo", ["cli"]).unwrap();
    assert!(next.parse_reply_json(&other).is_ok());
    assert_eq!(refused_property(next.parse_reply_json(&ok)), ["repo"]);
    // Decline and cancel carry no value.
    assert!(matches!(
        form.parse_reply_json(r#"{"action":"decline"}"#),
        Ok(ElicitResult::Decline)
    ));
}

#[test]
fn enum_fields_keep_only_the_choices_given_with_their_titles() {
    let form = Form::<PullRequest>::new()
        .choices("labels", ["docs", "bug"])
        .unwrap()
        .choices("kind", [("feature", "New feature")])
        .unwrap();
    let sent = serde_json::to_value(form.schema()).unwrap();
    assert_eq!(
        sent["properties"]["labels"]["items"]["anyOf"],
        json!([{"const": "docs", "title": "Docs"}, {"const": "bug", "title": "Bug"}])
    );
    assert_eq!(sent["properties"]["labels"]["minItems"], 1);
    // A set stays a set: the same choice twice is refused, as T's own schema refuses it,
    // and `uniqueItems`, outside the MCP subset, is not sent.
    let Kind::MultiSelect(rules) = &form.schema().properties()[2].kind else {
        panic!("{sent}")
    };
    assert!(!rules.unique);
    assert_eq!(sent["properties"]["labels"].get("uniqueItems"), None);
    let twice = accept(json!({"repo": "a", "branch": "b", "labels": ["bug", "bug"]}));
    assert_eq!(refused_property(form.parse_reply_json(&twice)), ["labels"]);
    assert_eq!(
        sent["properties"]["kind"]["oneOf"],
        json!([{"const": "feature", "title": "New feature"}])
    );
    let ok =
        accept(json!({"repo": "a", "branch": "b", "labels": ["bug", "docs"], "kind": "feature"}));
    let pr = form.parse_reply_json(&ok).unwrap().accepted().unwrap();
    assert_eq!(pr.labels, [Label::Bug, Label::Docs].into_iter().collect());
    assert_eq!(
        (pr.branch.as_str(), pr.kind, pr.reviewers),
        ("b", Some(Label::Feature), None)
    );
    let other = accept(json!({"repo": "a", "branch": "b", "labels": ["feature"], "kind": "bug"}));
    assert_eq!(
        refused_property(form.parse_reply_json(&other)),
        ["labels", "kind"]
    );
}

#[test]
fn choices_the_form_cannot_take_are_refused_before_anything_is_sent() {
    let refusals = [
        ("nope", vec!["a"], "is not a property"),
        ("reviewers", vec!["1"], "is an integer field"),
        ("repo", vec![], "at least one choice"),
        ("repo", vec!["a", "a"], "twice"),
        (
            "repo",
            vec!["much-too-long"],
            "the form's own rules refuse it",
        ),
        ("labels", vec!["bug", "wontfix"], "the field holds only"),
    ];
    for (property, choices, says) in refusals {
        let e = Form::<PullRequest>::new()
            .choices(property, choices)
            .expect_err(property);
        assert_eq!(e.property_name(), Some(property), "{e}");
        assert!(e.to_string().contains(says), "{e}");
    }
}

#[test]
fn the_request_is_written_for_each_version() {
    let form = Form::<PullRequest>::new()
        .message("Open a pull request on one of your repositories")
        .choices("repo", [("api", "API"), ("web", "Web site")])
        .unwrap();
    let latest = form.request().to_value();
    assert_eq!(
        latest["message"],
        "Open a pull request on one of your repositories"
    );
    assert_eq!(
        latest["requestedSchema"]["properties"]["repo"]["oneOf"][1]["title"],
        "Web site"
    );
    // 2025-06-18 has no multi-select: the form sends one box per choice, with the run-time
    // choices and their titles as they are.
    let old = form
        .request()
        .with_version(ProtocolVersion::V2025_06_18)
        .unwrap()
        .to_value();
    let properties = &old["requestedSchema"]["properties"];
    assert!(properties.get("labels").is_none());
    assert_eq!(properties["labels__bug"]["type"], "boolean");
    assert_eq!(properties["labels__bug"]["title"], "Labels: Bug");
    assert_eq!(properties["repo"]["enumNames"], json!(["API", "Web site"]));
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Deserialize,
    serde::Serialize,
    JsonSchema,
    Elicit,
)]
#[serde(rename_all = "lowercase")]
enum Tag {
    /// Bug
    Bug,
    /// Docs
    Docs,
    /// Feature
    Feature,
}

/// File a ticket.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Ticket {
    #[serde(default = "docs")]
    label: Tag,
    #[serde(default = "docs_and_bugs")]
    also: BTreeSet<Tag>,
}

fn docs() -> Tag {
    Tag::Docs
}

fn docs_and_bugs() -> BTreeSet<Tag> {
    [Tag::Docs, Tag::Bug].into()
}

#[test]
fn choices_given_per_request_keep_the_fields_style_and_default() {
    let wire = |form: &Form<Ticket>| serde_json::to_value(form.schema()).unwrap();
    let own = wire(&Form::<Ticket>::new());
    assert_eq!(own["properties"]["label"]["default"], "docs");
    // Still offered: the default stays, with the titled style.
    let offered = Form::<Ticket>::new()
        .choices("label", ["docs", "feature"])
        .unwrap()
        .choices("also", ["bug", "feature"])
        .unwrap();
    let p = &wire(&offered)["properties"];
    assert_eq!(p["label"]["default"], "docs");
    assert_eq!(
        p["label"]["oneOf"][0],
        json!({"const": "docs", "title": "Docs"})
    );
    assert_eq!(p["also"]["default"], json!(["bug"]));
    // No longer offered: no default that the form cannot show.
    let narrowed = Form::<Ticket>::new().choices("label", ["feature"]).unwrap();
    assert!(
        wire(&narrowed)["properties"]["label"]
            .get("default")
            .is_none()
    );
}

#[test]
fn a_url_mode_reply_reads_from_bytes_under_limits() {
    use elicit_core::UrlElicitResult;
    let reply = br#"{"action":"accept"}"#;
    assert_eq!(
        UrlElicitResult::from_json(reply).unwrap(),
        UrlElicitResult::Accept
    );
    // Over the default 1 MiB a reply is refused unread, as text or as bytes.
    let padded = format!(
        r#"{{"action":"decline","_meta":{{"pad":"{}"}}}}"#,
        "x".repeat(1 << 20)
    );
    for e in [
        UrlElicitResult::from_json(&padded).unwrap_err(),
        UrlElicitResult::from_json(padded.as_bytes()).unwrap_err(),
    ] {
        assert!(
            matches!(
                e.violations()[0].rule(),
                elicit_core::Rule::ReplyTooLarge(_)
            ),
            "{e}"
        );
    }
    let e = UrlElicitResult::from_json(b"{\"action\":\"acc\xffept\"}").unwrap_err();
    assert!(e.to_string().contains("UTF-8"), "{e}");
}

/// Bounds are not sent in words, and the description happens to end as a hint would.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[elicit(no_bound_hints)]
struct Code {
    /// Pick one (at most 8 characters)
    #[schemars(length(max = 8))]
    code: String,
}

#[test]
fn a_description_that_ends_like_a_hint_is_kept_whole() {
    let form = Form::<Code>::new().choices("code", ["ab", "cd"]).unwrap();
    let reply = accept(json!({"code": "cd"}));
    let Ok(ElicitResult::Accept(read)) = form.parse_reply_json(&reply) else {
        panic!("accepted")
    };
    assert_eq!(read.code, "cd");
    let sent = serde_json::to_value(form.schema()).unwrap();
    assert_eq!(
        sent["properties"]["code"]["description"],
        "Pick one (at most 8 characters)"
    );
    // With hints on, a field that becomes a select loses its length hint, and only that.
    let form = Form::<PullRequest>::new()
        .choices("repo", ["api", "web"])
        .unwrap();
    let sent = serde_json::to_value(form.schema()).unwrap();
    assert_eq!(sent["properties"]["repo"]["description"], "Repository");
    let own = serde_json::to_value(PullRequest::requested_schema()).unwrap();
    assert_eq!(
        own["properties"]["repo"]["description"],
        "Repository (at most 8 characters)"
    );
}
