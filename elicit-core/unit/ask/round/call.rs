//! Unit tests of `ask::round::call`, beside the crate's sources so that they reach its private items.

use super::*;
use crate::ask::question::retry::AttemptOutcome;
use crate::protocol::client::Request;

fn request() -> Request {
    let schema = crate::schema::RequestedSchema::builder().build().unwrap();
    Request::Form(crate::schema::request::FormRequest::owned("?", schema))
}

#[test]
fn each_await_of_a_key_is_its_own_question_in_every_run() {
    let mut call = CallMachine::default();
    assert!(matches!(call.await_index("k"), Err(Interrupt::OutsideRun)));
    call.begin_run();
    assert_eq!(call.await_index("k").unwrap(), Some(0));
    assert_eq!(call.await_index("k").unwrap(), Some(1));
    // The next run counts from the first again.
    call.end_run();
    call.begin_run();
    assert_eq!(call.await_index("k").unwrap(), Some(0));
}

#[test]
fn a_decline_answers_the_keys_later_awaits_in_the_run() {
    let mut call = CallMachine::default();
    call.begin_run();
    assert_eq!(call.await_index("k").unwrap(), Some(0));
    let declined = Attempt::new("?", AttemptOutcome::Declined);
    call.settled("k", vec![declined], true);
    assert_eq!(call.await_index("k").unwrap(), None);
    assert_eq!(call.attempts("k").len(), 1);
}

#[test]
fn a_key_waiting_in_this_round_holds_its_next_await_and_the_round_ends_with_it() {
    let mut call = CallMachine::default();
    call.begin_run();
    let index = call.await_index("k").unwrap().unwrap();
    call.pend("k", index, &request());
    assert!(matches!(
        call.await_index("k"),
        Err(Interrupt::InputRequired)
    ));
    let (pending, at) = call.end_run();
    assert_eq!(pending.entries().len(), 1);
    assert_eq!(at.get("k"), Some(&0));
    assert!(matches!(call.await_index("k"), Err(Interrupt::OutsideRun)));
}

#[test]
fn one_all_asks_each_key_once_and_shares_its_live_rounds() {
    let mut call = CallMachine::default();
    call.begin_run();
    call.batch(true);
    assert_eq!(call.await_index("a").unwrap(), Some(0));
    assert_eq!(call.await_index("b").unwrap(), Some(0));
    assert!(matches!(
        call.await_index("a"),
        Err(Interrupt::KeyReused { .. })
    ));
    // The first attempts of both share one round; a second attempt is another.
    call.count_live_round(0, 2).unwrap();
    call.count_live_round(0, 2).unwrap();
    assert_eq!(call.live_rounds(), 1);
    call.count_live_round(1, 2).unwrap();
    assert_eq!(call.live_rounds(), 2);
    call.batch(false);
    assert!(matches!(
        call.count_live_round(0, 2),
        Err(Interrupt::TooManyRounds { cap: 2, .. })
    ));
}

#[test]
fn a_retrys_answers_count_only_for_what_its_round_asked() {
    use serde_json::json;
    // The state of a round that asked for `k`, not yet answered.
    let asked = || {
        let mut carried = crate::ask::state::tests::carried();
        let answers = &mut carried.keys.get_mut("k").unwrap()[0];
        answers.replies.clear();
        answers.took_ms.clear();
        carried.pending.insert("k".into(), 0);
        carried
    };
    let mut carried = asked();
    let responses = Map::from_iter([
        (
            "k".to_owned(),
            json!({"action": "accept", "content": {"city": "Oslo"}}),
        ),
        (
            "unasked".to_owned(),
            json!({"action": "accept", "content": {}}),
        ),
    ]);
    let bound = (
        String::new(),
        SystemTime::UNIX_EPOCH,
        Binding::of("t", None, None),
    );
    let mut call = CallMachine::default();
    call.answered(
        &mut carried,
        &responses,
        Duration::from_secs(4),
        bound.clone(),
    );
    assert!(call.answered_now("k", 0));
    assert!(!call.answered_now("unasked", 0));
    assert!(carried.pending.is_empty());
    let kept = &carried.keys["k"][0];
    assert_eq!(kept.replies.len(), 1);
    assert_eq!(kept.took(0), Some(Duration::from_secs(4)));
    // The round's claim names the answers, whatever order their keys came in.
    let digest = call.round.as_ref().unwrap().answers.clone();
    let mut again = asked();
    let reordered = Map::from_iter([(
        "k".to_owned(),
        json!({"content": {"city": "Oslo"}, "action": "accept"}),
    )]);
    let mut other = CallMachine::default();
    other.answered(&mut again, &reordered, Duration::ZERO, bound);
    assert_eq!(other.round.unwrap().answers, digest);
}

fn opening(responses: &Map<String, Value>, now_ms: u64) -> Opening<'_> {
    Opening {
        now_ms,
        ttl: Duration::from_secs(3600),
        responses,
        room: "room".into(),
        binding: Binding::of("t", None, None),
    }
}

#[test]
fn a_state_opens_starts_over_or_stops_the_call() {
    let none = Map::new();
    let hour = 3_600_000;
    // No state: a first call, with nothing to claim.
    let mut call = CallMachine::default();
    assert_eq!(call.opened(None, opening(&none, hour)), None);
    assert!(matches!(&call.carried, Some(Ok(c)) if c.round == 0));
    assert!(call.claim(b"c").is_none() && call.restart.is_none());
    // No key of the server's opens it: the call starts over, saying so.
    let mut call = CallMachine::default();
    let why = call.opened(Some(Err(StateError::UnknownKey)), opening(&none, hour));
    assert!(why.is_some());
    assert_eq!(call.restart, Some(Restart::Unopened));
    assert!(matches!(&call.carried, Some(Ok(c)) if c.call != "call"));
    // A state that does not verify stops the call.
    let mut call = CallMachine::default();
    assert_eq!(
        call.opened(Some(Err(StateError::DoesNotOpen)), opening(&none, hour)),
        None
    );
    assert!(matches!(
        call.state(),
        Err(Interrupt::State(StateError::DoesNotOpen))
    ));
    // Past its time to live: the call starts over, its id and round numbers kept.
    let mut state = crate::ask::state::tests::carried();
    state.round = 2;
    let mut call = CallMachine::default();
    let why = call.opened(Some(Ok((state.clone(), 1))), opening(&none, hour + 2));
    assert!(why.is_some());
    assert!(
        matches!(&call.carried, Some(Ok(c)) if c.call == "call" && c.round == 2 && c.keys.is_empty())
    );
    assert!(call.claim(b"c").is_none());
    // Within it: the round is claimed, kept until the state expires.
    let mut call = CallMachine::default();
    assert_eq!(
        call.opened(Some(Ok((state, 1))), opening(&none, hour)),
        None
    );
    let (round, context) = call.claim(b"c").unwrap();
    assert_eq!(round.number, 2);
    assert_eq!(round.principal, "room");
    assert_eq!(
        round.expires,
        SystemTime::UNIX_EPOCH + Duration::from_millis(1 + hour)
    );
    assert!(!context.is_empty());
    // Two claims of one retry are told apart by their claimants only.
    let (other, _) = call.claim(b"d").unwrap();
    assert_eq!(
        (other.number, &other.answers),
        (round.number, &round.answers)
    );
    assert_ne!(other.claimant, round.claimant);
}

#[test]
fn a_forgotten_round_starts_the_call_over_unless_it_went_back_or_kept_losing_it() {
    let forgotten = |generation: &str, restarts: u32, now: &str| {
        let mut state = crate::ask::state::tests::carried();
        state.generation = generation.into();
        state.seen = vec!["g1".into()];
        state.restarts = restarts;
        state.round = 3;
        let mut call = CallMachine {
            carried: Some(Ok(state)),
            ..CallMachine::default()
        };
        let lost = call.forgotten(now, 3);
        (lost, call)
    };
    let (lost, call) = forgotten("g2", 1, "g2");
    assert_eq!(lost, Ok(Lost::LetGo));
    let Some(Ok(fresh)) = &call.carried else {
        panic!("the call goes on")
    };
    assert_eq!(
        (fresh.call.as_str(), fresh.round, fresh.from),
        ("call", 3, 3)
    );
    assert_eq!((fresh.restarts, fresh.seen.len()), (2, 2));
    assert!(fresh.keys.is_empty() && fresh.generation.is_empty());
    assert_eq!(call.restart, Some(Restart::Forgotten));
    assert_eq!(forgotten("g2", 1, "g3").0, Ok(Lost::Records));
    // Back at a store it left: the servers share none.
    assert_eq!(forgotten("g2", 1, "g1").0, Err(StateError::Unshared));
    // As often as it may: the store keeps losing its rounds.
    assert_eq!(forgotten("g4", 3, "g5").0, Err(StateError::Forgotten));
}

#[test]
fn the_first_round_makes_the_calls_entry_and_the_cap_ends_the_rounds() {
    let mut call = CallMachine {
        carried: Some(Ok(Carried::of("call".into()))),
        ..CallMachine::default()
    };
    let at = || BTreeMap::from([("k".to_owned(), 0)]);
    let round = call
        .first_round("room".into(), SystemTime::UNIX_EPOCH)
        .unwrap();
    assert_eq!((round.number, round.principal.as_str()), (1, "room"));
    call.began("g1".into());
    assert!(
        call.first_round("room".into(), SystemTime::UNIX_EPOCH)
            .is_none()
    );
    let sealed = call.next_round(at(), 2).unwrap();
    assert_eq!((sealed.round, sealed.generation.as_str()), (1, "g1"));
    assert_eq!(sealed.pending, at());
    call.next_round(at(), 2).unwrap();
    assert!(matches!(
        call.next_round(at(), 2),
        Err(Interrupt::TooManyRounds { cap: 2, pending }) if pending == ["k"]
    ));
}

/// A form question that asks by failing with the message it would show.
struct Asks(crate::ask::question::Core);

impl Asking for Asks {
    fn core(&self) -> &crate::ask::question::Core {
        &self.0
    }
    fn kind(&self) -> QuestionKind {
        QuestionKind::Form
    }
    fn trace_name(&self) -> Cow<'static, str> {
        Cow::Borrowed("test")
    }
    fn request(
        &self,
        _: &crate::ask::question::Facts<'_>,
        message: &str,
        _: Option<crate::ask::question::Kept<'_>>,
        _: usize,
    ) -> Result<Request, Interrupt> {
        Err(Interrupt::Error(
            crate::protocol::jsonrpc::RpcError::internal(message),
        ))
    }
}

/// What the step of `question`'s first await does next: the message it asks with, or
/// the replies it read.
fn next(
    call: &mut CallMachine,
    question: &Asks,
    unasked: Option<Value>,
) -> Result<Vec<Value>, String> {
    use crate::ask::question::step::Next;
    let mut step = (call.step(question, 0, unasked, &|reply| reply.clone()))
        .map_err(|stop| format!("{stop:?}"))?;
    let carries = |_: &Request| Ok(());
    let facts = crate::ask::question::Facts {
        version: crate::version::ProtocolVersion::V2026_07_28,
        shows: true,
        argument: None,
        carries: &carries,
        deadline: Duration::from_secs(60),
        structured: true,
        call_id: None,
    };
    let mut read = Vec::new();
    let mut reading = |reply: &Value| {
        read.push(reply.clone());
        crate::ask::AttemptOutcome::Accepted
    };
    match step.next(question, &facts, &mut reading) {
        Next::Final => Ok(read),
        Next::Stop(Interrupt::Error(e)) => Err(e.message),
        _ => panic!("neither read nor asked"),
    }
}

#[test]
fn each_await_steps_from_its_replies_and_says_why_it_is_asked_again() {
    use crate::ask::RetryPolicy;
    use crate::ask::question::Core;
    let question = |message: &str| {
        Asks(Core::new(
            RetryPolicy::NONE,
            "k".into(),
            Some(message.into()),
        ))
    };
    let state = || {
        let mut carried = Carried::of("call".into());
        carried
            .register("k", 0, &question("Where to?").identity())
            .unwrap();
        carried.push_reply("k", 0, serde_json::json!({"action": "accept"}), None);
        carried
    };
    let with = |carried: Carried| CallMachine {
        carried: Some(Ok(carried)),
        ..CallMachine::default()
    };
    // The same question reads its reply.
    assert_eq!(
        next(&mut with(state()), &question("Where to?"), None)
            .unwrap()
            .len(),
        1
    );
    // A changed one drops it and is asked again, saying so; it then reads as changed.
    let mut call = with(state());
    let asked = next(&mut call, &question("Where now?"), None).unwrap_err();
    assert!(
        asked.starts_with("Where now?") && asked.contains("changed"),
        "{asked}"
    );
    // A call that started over says why in every question.
    let mut call = with(Carried::of("call".into()));
    call.restart = Some(Restart::Forgotten);
    let asked = next(&mut call, &question("Where to?"), None).unwrap_err();
    assert!(asked.ends_with(Restart::Forgotten.sentence()), "{asked}");
    // An answer sent unasked is the first await's first reply.
    let mut call = with(Carried::of("call".into()));
    let unasked = serde_json::json!({"action": "accept", "content": {}});
    assert_eq!(
        next(&mut call, &question("Where to?"), Some(unasked.clone())).unwrap(),
        [unasked]
    );
}

#[test]
fn a_claimed_round_is_held_by_the_call_and_a_take_over_is_known() {
    let origin = Instant::now();
    let hold = Hold {
        wait: Duration::from_secs(40),
        lease: Duration::from_secs(30),
        expires: origin + Duration::from_secs(3600),
    };
    let mut call = CallMachine::default();
    // Running elsewhere: wait, counted from the first claim.
    let verdict = call.claim_answered((origin, origin), Ok(Claim::Running), &hold);
    assert!(matches!(verdict, Verdict::Wait(_)));
    let late = origin + Duration::from_secs(41);
    let verdict = call.claim_answered((late, late), Ok(Claim::Running), &hold);
    assert_eq!(verdict, Verdict::InProgress);
    assert!(call.claimed.is_none() && !call.taken_over());
    // Ours: the call holds the round, renewing it from the claim's send.
    let mut call = CallMachine::default();
    let verdict = call.claim_answered((origin, origin), Ok(Claim::TakenOver), &hold);
    assert_eq!(verdict, Verdict::Run { taken_over: true });
    assert!(call.taken_over());
    let renew = origin + Duration::from_secs(10);
    assert_eq!(
        call.held(renew).next(renew),
        crate::ask::round::machine::Keep::Renew
    );
    // Outside a claim, the machine has nothing to keep.
    let mut idle = CallMachine::default();
    assert_eq!(
        idle.held(renew).next(renew),
        crate::ask::round::machine::Keep::Stop
    );
}

#[test]
fn progress_only_grows() {
    let mut call = CallMachine::default();
    let (one, two) = (call.next_progress(), call.next_progress());
    assert!(two > one);
}
