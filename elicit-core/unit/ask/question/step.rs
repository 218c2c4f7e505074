//! Unit tests of `ask::question::step`, beside the crate's sources so that they reach its private items.

use std::borrow::Cow;

use super::*;
use crate::ask::RetryPolicy;
use crate::ask::question::{Core, Kept};
use crate::ask::state::QuestionKind;
use crate::error::SchemaError;
use crate::schema::request::FormRequest;
use crate::schema::{Field, RequestedSchema};
use crate::version::ProtocolVersion;

/// A form question with no `Ask` behind it: the step reads only what it says.
struct Probe {
    core: Core,
    schema: RequestedSchema,
}

impl Asking for Probe {
    fn core(&self) -> &Core {
        &self.core
    }
    fn kind(&self) -> QuestionKind {
        QuestionKind::Form
    }
    fn trace_name(&self) -> Cow<'static, str> {
        Cow::Borrowed("probe")
    }
    fn schema(&self) -> Option<&RequestedSchema> {
        Some(&self.schema)
    }
    fn request(
        &self,
        facts: &Facts<'_>,
        message: &str,
        _keep: Option<Kept<'_>>,
        _index: usize,
    ) -> Result<Request, Interrupt> {
        FormRequest::owned(message, self.schema.clone())
            .with_version(facts.version)
            .map(Request::Form)
            .map_err(Interrupt::from)
    }
}

fn question(policy: RetryPolicy) -> Probe {
    let schema = RequestedSchema::builder()
        .field(Field::string("city").min_length(1).required())
        .build()
        .unwrap();
    Probe {
        core: Core::new(policy, "trip".into(), Some("Where to?".into())),
        schema,
    }
}

fn carries(_: &Request) -> Result<(), SchemaError> {
    Ok(())
}

fn facts(version: ProtocolVersion, shows: bool, argument: Option<&Value>) -> Facts<'_> {
    Facts {
        version,
        shows,
        argument,
        carries: &carries,
        deadline: Duration::from_secs(60),
        structured: true,
        call_id: None,
    }
}

fn reading(schema: &RequestedSchema) -> impl FnMut(&Value) -> AttemptOutcome + Send + '_ {
    |reply| {
        let read = schema.parse_reply_value(reply);
        AttemptOutcome::from_action(read.as_ref().map(|r| r.action()))
    }
}

fn stored(reply: Value, took: u64) -> Stored {
    Stored {
        reply,
        took: Some(Duration::from_secs(took)),
        source: AnswerSource::Person,
    }
}

fn step(probe: &Probe, replies: Vec<Stored>) -> Step {
    let attempts = Attempts::new(probe.policy(), "Where to?");
    Step::new(attempts.with_schema(&probe.schema), replies, 0)
}

const LIVE: ProtocolVersion = ProtocolVersion::V2025_11_25;
const ROUNDS: ProtocolVersion = ProtocolVersion::V2026_07_28;

#[test]
fn a_new_question_is_sent_live_or_pended_by_version() {
    let probe = question(RetryPolicy::NONE);
    let mut read = reading(&probe.schema);
    let mut live = step(&probe, Vec::new());
    assert!(matches!(
        live.next(&probe, &facts(LIVE, true, None), &mut read),
        Next::Send(_)
    ));
    live.replied(
        json!({"action": "accept", "content": {"city": "Oslo"}}),
        Duration::ZERO,
        &mut read,
    );
    assert!(matches!(
        live.next(&probe, &facts(LIVE, true, None), &mut read),
        Next::Final
    ));
    let mut round = step(&probe, Vec::new());
    assert!(matches!(
        round.next(&probe, &facts(ROUNDS, true, None), &mut read),
        Next::Pend(_)
    ));
}

#[test]
fn stored_replies_are_read_through_the_policy_and_the_deadline() {
    let cancel = || json!({"action": "cancel"});
    let probe = question(RetryPolicy::default());
    let mut read = reading(&probe.schema);
    // A cancel from an earlier round is asked once more, saying so.
    let mut again = step(&probe, vec![stored(cancel(), 5)]);
    let Next::Pend(Request::Form(form)) = again.next(&probe, &facts(ROUNDS, true, None), &mut read)
    else {
        panic!("asked again")
    };
    assert!(form.message().contains("dismissed"), "{}", form.message());
    // Without a retry policy it is final.
    let once = question(RetryPolicy::NONE);
    let mut read = reading(&once.schema);
    let mut last = step(&once, vec![stored(cancel(), 5)]);
    assert!(matches!(
        last.next(&once, &facts(ROUNDS, true, None), &mut read),
        Next::Final
    ));
    assert!(last.settled_before());
    // An accept that came after the deadline is a cancel that timed out.
    let accept = json!({"action": "accept", "content": {"city": "Oslo"}});
    let mut late = step(&once, vec![stored(accept, 120)]);
    assert!(matches!(
        late.next(&once, &facts(ROUNDS, true, None), &mut read),
        Next::Final
    ));
    let attempt = late.attempts().last().unwrap();
    assert_eq!(
        (&attempt.outcome, attempt.source),
        (&AttemptOutcome::Cancelled, AnswerSource::TimedOut)
    );
}

#[test]
fn a_form_sent_back_empty_twice_is_not_asked_a_third_time() {
    let probe = question(RetryPolicy::default().with_max_invalid_retries(5));
    let mut read = reading(&probe.schema);
    let empty = || json!({"action": "accept", "content": {}});
    let mut step = step(&probe, vec![stored(empty(), 1)]);
    assert!(matches!(
        step.next(&probe, &facts(LIVE, true, None), &mut read),
        Next::Send(_)
    ));
    step.replied(empty(), Duration::ZERO, &mut read);
    assert!(matches!(
        step.next(&probe, &facts(LIVE, true, None), &mut read),
        Next::Final
    ));
    assert_eq!(step.attempts().len(), 2);
}

#[test]
fn a_client_that_cannot_show_the_form_reads_the_arguments_where_the_question_opts_in() {
    let mut strict = question(RetryPolicy::NONE);
    let mut read = reading(&strict.schema);
    let argument = json!({"city": "Oslo"});
    let stop =
        step(&strict, Vec::new()).next(&strict, &facts(LIVE, false, Some(&argument)), &mut read);
    assert!(
        matches!(stop, Next::Stop(Interrupt::MissingCapability { .. })),
        "{stop:?}"
    );
    strict.core.arguments = true;
    let mut taken = step(&strict, Vec::new());
    let next = taken.next(&strict, &facts(LIVE, false, Some(&argument)), &mut read);
    assert!(matches!(next, Next::Final), "{next:?}");
    assert_eq!(taken.attempts()[0].source, AnswerSource::Arguments);
    let none = step(&strict, Vec::new()).next(&strict, &facts(ROUNDS, false, None), &mut read);
    assert!(
        matches!(none, Next::Stop(Interrupt::Unavailable(_))),
        "{none:?}"
    );
}

#[test]
fn a_form_the_sdk_cannot_carry_is_stopped_before_it_is_sent() {
    let probe = question(RetryPolicy::NONE);
    let mut read = reading(&probe.schema);
    let refuse = |_: &Request| Err(SchemaError::root("no patterns here"));
    let facts = Facts {
        carries: &refuse,
        ..facts(LIVE, true, None)
    };
    let next = step(&probe, Vec::new()).next(&probe, &facts, &mut read);
    assert!(
        matches!(next, Next::Stop(Interrupt::Send(SendError::Schema(_)))),
        "{next:?}"
    );
}
