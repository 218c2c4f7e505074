//! The forms and tool bodies of the conformance suite's 2026-07-28 elicitation scenarios, with
//! the messages and answers the suite expects: shared by the conformance servers of both SDKs,
//! whose bodies are one text.

use elicit_core::client::Capability;
use elicit_core::prelude::*;
use elicit_core::{ElicitResult, SamplingRequest};

/// What is your name?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct UserName {
    pub name: String,
}

/// Please confirm
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Ok_ {
    pub ok: bool,
}

/// Step 1: What is your name?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Step1 {
    pub name: String,
}

/// Step 2: What is your favorite color?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Step2 {
    pub color: String,
}

/// What context should the prompt use?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct UserContext {
    pub context: String,
}

/// Asks for the user's name in one round. A name the client sends up front, unasked, counts
/// too (the suite's `ignore-extra-params` sends one on a first call, with keys nobody asked
/// for beside it): the name is what an argument could have given.
pub async fn greet(ask: Ask) -> Asked<String> {
    ask.run(async {
        Ok(
            match ask
                .form::<UserName>("user_name")
                .accepting_unasked()
                .await?
            {
                ElicitResult::Accept(user) => format!("Hello, {}!", user.name),
                _ => "No name given.".to_owned(),
            },
        )
    })
    .await
}

/// Asks for a confirmation; the answer returns with the sealed state.
pub async fn confirm(ask: Ask) -> Asked<String> {
    ask.run(async {
        // The body runs only once the state the client echoed has opened.
        let ok = match ask.form::<Ok_>("confirm").await? {
            ElicitResult::Accept(answer) => answer.ok,
            _ => false,
        };
        Ok(format!("state-ok: confirmed {ok}"))
    })
    .await
}

/// Asks two questions, one round each.
pub async fn two_steps(ask: Ask) -> Asked<String> {
    ask.run(async {
        let ElicitResult::Accept(step1) = ask.form::<Step1>("step1").await? else {
            return Ok("No name given.".to_owned());
        };
        let ElicitResult::Accept(step2) = ask.form::<Step2>("step2").await? else {
            return Ok("No color given.".to_owned());
        };
        Ok(format!("{} likes {}.", step1.name, step2.color))
    })
    .await
}

/// The greeting the capability and batch scenarios ask the client's model for.
fn greeting() -> SamplingRequest {
    SamplingRequest::new(50).user("Generate a greeting")
}

/// A form where the client can show one; else a greeting written by the client's model.
pub async fn capabilities(ask: Ask) -> Asked<String> {
    if ask.supports(Capability::Form) {
        return greet(ask).await;
    }
    ask.run(async { Ok(ask.sample("greeting", greeting()).await?.text()) })
        .await
}

/// Asks the client's model a question, and answers with its reply.
pub async fn sampling(ask: Ask) -> Asked<String> {
    ask.run(async {
        let question = SamplingRequest::new(100).user("What is the capital of France?");
        Ok(ask.sample("capital_question", question).await?.text())
    })
    .await
}

/// Lists the client's roots.
pub async fn list_roots(ask: Ask) -> Asked<String> {
    ask.run(async {
        let roots = ask.roots("client_roots").await?;
        let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
        Ok(format!("Roots: {}", uris.join(", ")))
    })
    .await
}

/// A form, a completion and the roots, in one round.
pub async fn multiple(ask: Ask) -> Asked<String> {
    ask.run(async {
        let (user, greeting, roots) = ask
            .all((
                ask.form::<UserName>("user_name"),
                ask.sample("greeting", greeting()),
                ask.roots("client_roots"),
            ))
            .await?;
        let name = match user {
            ElicitResult::Accept(user) => user.name,
            _ => "nobody".to_owned(),
        };
        Ok(format!(
            "{name}: {} ({} roots)",
            greeting.text(),
            roots.len()
        ))
    })
    .await
}

/// The prompt's question: the context it should use.
pub async fn prompt_context(ask: &Ask) -> Asked<String> {
    ask.run(async {
        Ok(match ask.form::<UserContext>("user_context").await? {
            ElicitResult::Accept(user) => user.context,
            _ => "none".to_owned(),
        })
    })
    .await
}
