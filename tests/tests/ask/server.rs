//! The server these tests drive through the test kit: a hand-written `call_tool` with one tool
//! per behaviour, and the forms they ask.

use std::sync::{Arc, Mutex};

use elicit_core::ElicitResult;
use elicit_core::Form;
use elicit_core::ProtocolVersion;
use elicit_core::ask::RetryPolicy;
use elicit_core::ask::StateKey;
use elicit_core::prelude::*;
use elicit_test::{Answer, Transcript};
use rmcp::ServerHandler;
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Where would you like to go?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Trip {
    #[schemars(length(min = 1, max = 40))]
    pub city: String,
    #[schemars(range(min = 1, max = 30))]
    pub nights: u8,
}

/// A week or more: a few extras
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Extras {
    pub rental_car: bool,
    pub budget: Budget,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub enum Budget {
    Low,
    Medium,
    High,
}

/// Anything you can't eat?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Diet {
    pub vegetarian: bool,
}

/// Open a pull request
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Pick {
    pub repo: String,
    #[schemars(length(min = 1))]
    pub branch: String,
}

pub const OPEN: &str = "Open it now?";
pub const SIZE: &str = "Which size?";
pub const ZIP: &str = "Your ZIP code?";
pub const CONTACT: &str = "How can we reach you?";
pub const TRIP: &str = "Where would you like to go?";
pub const EXTRAS: &str = "A week or more: a few extras";
pub const DIET: &str = "Anything you can't eat?";
pub const PAGE: &str = "https://accounts.example.com/connect";

/// The server: hand-written `call_tool`, one `Ask` per call, sealed with its own key.
#[derive(Clone)]
pub struct Server {
    pub key: StateKey,
    pub max_rounds: u32,
    /// The `Ask`'s retry policy for every question, if any.
    pub retry: Option<RetryPolicy>,
    /// The `Ask`'s keep-alive interval, if not the default.
    pub keep_alive: Option<std::time::Duration>,
    /// Whether the tools say they declare an `outputSchema`.
    pub output_schema: bool,
    /// The message of the `reworded` tool's trip form.
    pub trip_message: String,
    /// How often the `effects` tool ran the code before its questions, and after them.
    pub effects: Arc<Mutex<(usize, usize)>>,
    /// How often a body ran: what the `pay`, `pay_once` and `rooms` tools show changes with it.
    pub runs: Arc<std::sync::atomic::AtomicU32>,
    /// The `Ask`'s deadline for live requests, if not the default.
    pub deadline: Option<std::time::Duration>,
}

/// A key of this server's own, as a process that restarted without a shared secret holds: no
/// other server's states open under it. (`StateKey::random` is one key per process.) It keeps
/// its rounds in the process's store, as a random key does.
pub fn own_key() -> StateKey {
    static SERVERS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = SERVERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let secret = format!("the secret of test server number {n:08}");
    StateKey::new(secret)
        .unwrap()
        .with_store(elicit_core::ask::MemoryStore::process().clone())
}

impl Server {
    pub fn new() -> Self {
        Server {
            key: own_key(),
            max_rounds: elicit_core::ask::Ask::DEFAULT_MAX_ROUNDS,
            retry: None,
            keep_alive: None,
            output_schema: false,
            trip_message: TRIP.to_owned(),
            effects: Arc::default(),
            runs: Arc::default(),
            deadline: None,
        }
    }
}

pub fn json_result(value: Value) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(value.to_string())])
}

/// The trip planner's questions: a trip, then, for a week or more, extras.
pub async fn plan_body(ask: &Ask) -> Result<Value, Interrupt> {
    let trip = ask.form::<Trip>("trip").await?;
    let extras = match &trip {
        ElicitResult::Accept(trip) if trip.nights >= 7 => Some(ask.form::<Extras>("extras").await?),
        _ => None,
    };
    Ok(json!({"trip": trip, "extras": extras}))
}

async fn plan(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async { plan_body(ask).await.map(json_result) })
        .await
}

/// `plan`, counting the runs of the code before the questions and after them.
async fn effects(ask: &Ask, count: &Mutex<(usize, usize)>) -> Asked<CallToolResult> {
    ask.run(async {
        count.lock().unwrap().0 += 1;
        let trip = ask.form::<Trip>("trip").await?;
        if matches!(&trip, ElicitResult::Accept(trip) if trip.nights >= 7) {
            let _extras = ask.form::<Extras>("extras").await?;
        }
        count.lock().unwrap().1 += 1;
        Ok(json_result(json!({"trip": trip})))
    })
    .await
}

async fn both(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        // Keys that sort in body order: the same answer order on every version.
        let (diet, trip) = ask
            .all((ask.form::<Diet>("diet"), ask.form::<Trip>("trip")))
            .await?;
        Ok(json_result(json!({"trip": trip, "diet": diet})))
    })
    .await
}

async fn both_reversed(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        // Keys that sort against body order: a round lists `diet` first.
        let (trip, diet) = ask
            .all((ask.form::<Trip>("trip"), ask.form::<Diet>("diet")))
            .await?;
        Ok(json_result(json!({"trip": trip, "diet": diet})))
    })
    .await
}

async fn patient(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let answer = ask
            .form::<Trip>("trip")
            .retrying(RetryPolicy::default())
            .await;
        let attempts: Vec<String> = ask
            .attempts("trip")
            .iter()
            .map(|a| format!("{:?}", a.outcome))
            .collect();
        let answer = match answer {
            Ok(answer) => json!(answer),
            Err(Interrupt::Invalid { error, .. }) => json!({"invalid": error.to_string()}),
            Err(other) => return Err(other),
        };
        Ok(json_result(json!({"answer": answer, "attempts": attempts})))
    })
    .await
}

async fn connect(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let answer = ask.url("connect", "Sign in on our page", PAGE).await?;
        Ok(json_result(json!(answer)))
    })
    .await
}

/// One key awaited three times: each await is a question of its own.
async fn reuse(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let trip = ask.form::<Trip>("k").await?;
        let again = ask.form::<Trip>("k").await?;
        let extras = ask.form::<Extras>("k").await?;
        Ok(json_result(
            json!({"trip": trip, "again": again, "extras": extras}),
        ))
    })
    .await
}

async fn endless(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        for round in 0.. {
            let _answer = ask.form::<Diet>(format!("q{round}")).await?;
        }
        unreachable!("the loop ends at an ask")
    })
    .await
}

/// Run-time choices from the call's `repos` argument, then a confirmation.
async fn pick(ask: &Ask, repos: Vec<String>) -> Asked<CallToolResult> {
    ask.run(async {
        let form = Form::<Pick>::new().choices("repo", repos)?;
        let pick = ask.form_with("pick", &form).await?;
        let open = match &pick {
            ElicitResult::Accept(_) => Some(ask.confirm("open", OPEN).await?.is_confirmed()),
            _ => None,
        };
        Ok(json_result(json!({"pick": pick, "open": open})))
    })
    .await
}

/// A form built at run time, answered as `Content`.
async fn sized(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let schema = elicit_core::schema::RequestedSchema::builder()
            .field(elicit_core::schema::Field::select("size", ["s", "m", "l"]).required())
            .field(elicit_core::schema::Field::integer("count").range(1, 9))
            .build()?;
        let answer = ask.schema("size", SIZE, &schema).await?;
        Ok(json_result(json!({"size": answer})))
    })
    .await
}

/// A form built at run time whose default breaks its own range: dropped, never sent.
async fn defaulted(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let schema = elicit_core::schema::RequestedSchema::builder()
            .field(
                elicit_core::schema::Field::integer("count")
                    .range(1, 9)
                    .default(0),
            )
            .build()?;
        let answer = ask.schema("count", SIZE, &schema).await?;
        Ok(json_result(json!({"count": answer})))
    })
    .await
}

/// A run-time form of each string format and a boolean, answered from the arguments when no
/// form can be shown.
async fn contact_args(ask: &Ask) -> Asked<CallToolResult> {
    use elicit_core::schema::{Field, Format};
    ask.run(async {
        let schema = elicit_core::schema::RequestedSchema::builder()
            .field(Field::string("email").format(Format::Email).required())
            .field(Field::string("site").format(Format::Uri))
            .field(Field::string("day").format(Format::Date))
            .field(Field::string("at").format(Format::DateTime))
            .field(Field::boolean("news"))
            .build()?;
        let answer = ask
            .schema("contact", CONTACT, &schema)
            .or_arguments()
            .await?;
        Ok(json_result(json!({"contact": answer})))
    })
    .await
}

/// A run-time schema with a rule rmcp's schema model cannot hold: a `pattern`.
fn zip_schema() -> elicit_core::schema::RequestedSchema {
    elicit_core::schema::RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
        "required": ["zip"]
    }))
    .unwrap()
}

/// Asks for the form of [`zip_schema`].
async fn patterned(ask: &Ask) -> Asked<CallToolResult> {
    let schema = zip_schema();
    ask.run(async {
        let answer = ask.schema("zip", ZIP, &schema).await?;
        Ok(json_result(json!({"zip": answer})))
    })
    .await
}

/// `plan` with both questions answered from the arguments when the client cannot show them,
/// and pre-filled from them when it can; with each question's attempts.
async fn plan_args(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let trip = ask.form::<Trip>("trip").or_arguments().await?;
        let extras = match &trip {
            ElicitResult::Accept(trip) if trip.nights >= 7 => {
                Some(ask.form::<Extras>("extras").or_arguments().await?)
            }
            _ => None,
        };
        let attempts = |key| {
            let attempts: Vec<Value> = ask
                .attempts(key)
                .iter()
                .map(|a| json!({"source": format!("{:?}", a.source), "took_ms": a.took.map(|t| t.as_millis() as u64)}))
                .collect();
            attempts
        };
        Ok(json_result(json!({
            "trip": trip,
            "extras": extras,
            "attempts": {"trip": attempts("trip"), "extras": attempts("extras")},
        })))
    })
    .await
}

/// A confirmation that opts into the arguments: it still comes from a person only.
/// A confirmation, on a call whose arguments may hold `sure`: they never answer it.
async fn confirm_args(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let sure = ask.confirm("sure", "Are you sure?").await?;
        let reason = sure.reason().map(|why| why.to_string());
        Ok(json_result(
            json!({"confirmed": sure.is_confirmed(), "reason": reason}),
        ))
    })
    .await
}

/// `plan`, with the trip form's message as this deployment of the server words it.
async fn reworded(ask: &Ask, message: &str) -> Asked<CallToolResult> {
    ask.run(async {
        let trip = ask.form::<Trip>("trip").message(message).await?;
        let extras = match &trip {
            ElicitResult::Accept(trip) if trip.nights >= 7 => {
                Some(ask.form::<Extras>("extras").await?)
            }
            _ => None,
        };
        Ok(json_result(json!({"trip": trip, "extras": extras})))
    })
    .await
}

/// A trip question that keeps its own call alive every second.
async fn keep_question(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let trip = ask
            .form::<Trip>("trip")
            .keep_alive(std::time::Duration::from_secs(1))
            .await?;
        Ok(json_result(json!({"trip": trip})))
    })
    .await
}

/// A body awaited without `ask.run`.
async fn outside_run(ask: &Ask) -> Result<CallToolResponse, ErrorData> {
    let body = async {
        let trip = ask.form::<Trip>("trip").await?;
        Ok::<_, Interrupt>(json_result(json!({"trip": trip})))
    };
    match body.await {
        Ok(result) => Ok(result.into()),
        Err(interrupt) => interrupt.into_response(),
    }
}

/// Two confirmations with the same message, under their own keys.
async fn confirm_twice(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let first = ask.confirm("first", "Are you sure?").await?.is_confirmed();
        let second = ask.confirm("second", "Are you sure?").await?.is_confirmed();
        Ok(json_result(json!([first, second])))
    })
    .await
}

/// A confirmation with a live price in its message, fetched anew each time the body runs;
/// with `once`, fetched once per call.
async fn pay(ask: &Ask, runs: &std::sync::atomic::AtomicU32, once: bool) -> Asked<CallToolResult> {
    let fetch = || async { 100 + runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst) };
    ask.run(async {
        let price = if once {
            ask.once("price", fetch()).await?
        } else {
            fetch().await
        };
        let paid = ask
            .confirm("pay", format!("Pay {price} EUR?"))
            .await?
            .is_confirmed();
        Ok(json_result(json!({"price": price, "paid": paid})))
    })
    .await
}

/// Run-time choices in an order that differs each time the body runs, as a `HashSet`'s does.
async fn rooms(ask: &Ask, runs: &std::sync::atomic::AtomicU32) -> Asked<CallToolResult> {
    let mut rooms = vec!["api", "docs", "web"];
    let run = runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst) as usize;
    rooms.rotate_left(run % 3);
    ask.run(async {
        let form = Form::<Pick>::new().choices("repo", rooms)?;
        let pick = ask.form_with("pick", &form).await?;
        Ok(json_result(json!({"pick": pick})))
    })
    .await
}

/// A run-time form whose fields come in another order in each run of the body.
async fn fields(ask: &Ask, runs: &std::sync::atomic::AtomicU32) -> Asked<CallToolResult> {
    use elicit_core::schema::{Field, RequestedSchema};
    let mut fields = vec![
        Field::string("repo").required(),
        Field::string("branch").required(),
        Field::string("note"),
    ];
    let run = runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst) as usize;
    fields.rotate_left(run % 3);
    let schema = fields
        .into_iter()
        .fold(RequestedSchema::builder(), |schema, field| {
            schema.field(field)
        })
        .build()
        .unwrap();
    ask.run(async {
        let push = ask.schema("push", "Push where?", &schema).await?;
        Ok(json_result(json!({"push": push})))
    })
    .await
}

/// A booking read from the arguments where the client cannot show the form, then a
/// confirmation, which no argument answers: the body branches on why it is not confirmed.
async fn book(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let ElicitResult::Accept(trip) = ask.form::<Trip>("booking").or_arguments().await? else {
            return Ok(json_result(json!({"booked": false})));
        };
        let message = format!("Book {} nights in {}?", trip.nights, trip.city);
        let confirmation = ask.confirm("confirm", message).await?;
        Ok(json_result(match confirmation.reason() {
            None => json!({"booked": true, "city": trip.city}),
            Some(elicit_core::ask::Unconfirmed::NoPerson) => json!({
                "booked": false,
                "city": trip.city,
                "next": "confirm with the person in the conversation, then book",
            }),
            Some(why) => json!({"booked": false, "city": trip.city, "why": why.to_string()}),
        }))
    })
    .await
}

/// A confirmation under the `Ask`'s retry policy, with its attempts.
async fn sure(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let (sure, attempt) = ask
            .with_attempt(ask.confirm("sure", "Are you sure?"))
            .await?;
        Ok(json_result(json!({
            "confirmed": sure.is_confirmed(),
            "reason": sure.reason().map(|why| why.to_string()),
            "source": format!("{:?}", attempt.source),
            "attempts": ask.attempts("sure").len(),
        })))
    })
    .await
}

/// Two confirmations under one key.
async fn one_key_two_confirmations(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let book = ask
            .confirm("confirm", "Book the room?")
            .await?
            .is_confirmed();
        let charge = ask
            .confirm("confirm", "Charge your card?")
            .await?
            .is_confirmed();
        Ok(json_result(json!([book, charge])))
    })
    .await
}

/// A form that names a field `Pick` does not have.
async fn bad_choices(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let form = Form::<Pick>::new().choices("repository", ["api"])?;
        let pick = ask.form_with("pick", &form).await?;
        Ok(json_result(json!(pick)))
    })
    .await
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut ask = Ask::new(&request, &context)
            .with_key(self.key.clone())
            .with_max_rounds(self.max_rounds);
        if let Some(policy) = self.retry {
            ask = ask.with_retry(policy);
        }
        if let Some(interval) = self.keep_alive {
            ask = ask.with_keep_alive(interval);
        }
        if let Some(deadline) = self.deadline {
            ask = ask.with_deadline(deadline);
        }
        ask = ask.with_output_schema(self.output_schema);
        match request.name.as_ref() {
            "outside_run" => outside_run(&ask).await,
            "plan_args" => plan_args(&ask).await.into_response(),
            "keep_question" => keep_question(&ask).await.into_response(),
            "reworded" => reworded(&ask, &self.trip_message).await.into_response(),
            "confirm_args" => confirm_args(&ask).await.into_response(),
            "confirm_twice" => confirm_twice(&ask).await.into_response(),
            "pay" => pay(&ask, &self.runs, false).await.into_response(),
            "pay_once" => pay(&ask, &self.runs, true).await.into_response(),
            "rooms" => rooms(&ask, &self.runs).await.into_response(),
            "fields" => fields(&ask, &self.runs).await.into_response(),
            "one_key" => one_key_two_confirmations(&ask).await.into_response(),
            "book" => book(&ask).await.into_response(),
            "sure" => sure(&ask).await.into_response(),
            "bad_choices" => bad_choices(&ask).await.into_response(),
            "plan" | "plan_too" => plan(&ask).await.into_response(),
            "both" => both(&ask).await.into_response(),
            "both_reversed" => both_reversed(&ask).await.into_response(),
            "effects" => effects(&ask, &self.effects).await.into_response(),
            "patient" => patient(&ask).await.into_response(),
            "connect" => connect(&ask).await.into_response(),
            "reuse" => reuse(&ask).await.into_response(),
            "endless" => endless(&ask).await.into_response(),
            "pick" => {
                let repos = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("repos"))
                    .and_then(|r| serde_json::from_value(r.clone()).ok())
                    .unwrap_or_default();
                pick(&ask, repos).await.into_response()
            }
            "sized" => sized(&ask).await.into_response(),
            "defaulted" => defaulted(&ask).await.into_response(),
            "contact_args" => contact_args(&ask).await.into_response(),
            "patterned" => patterned(&ask).await.into_response(),
            other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        }
    }
}

/// An answer's wire JSON, as the tools write it back.
pub fn accepted(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

pub fn declined() -> Value {
    json!({"action": "decline"})
}

pub fn cancelled() -> Value {
    json!({"action": "cancel"})
}

pub fn long_trip() -> Value {
    json!({"city": "Kyoto", "nights": 9})
}

pub fn short_trip() -> Value {
    json!({"city": "Lisbon", "nights": 3})
}

pub fn extras() -> Value {
    json!({"rental_car": true, "budget": "Medium"})
}

pub fn accept(content: Value) -> Answer {
    Answer::accept(content)
}

/// The tool's JSON result of a call that finished without a tool error.
pub fn json_of(outcome: &Transcript) -> Value {
    assert!(!outcome.is_error(), "{}", outcome.text());
    outcome.json().expect("a JSON result")
}

/// The JSON text of a raw result.
pub fn json_of_result(result: &CallToolResult) -> Value {
    let text: String = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    serde_json::from_str(&text).expect("a JSON result")
}

/// The request's `requestedSchema` of `T` for `version`, as the client sees it.
pub fn schema_for<T: Elicit>(version: ProtocolVersion) -> Value {
    serde_json::to_value(T::requested_schema_for(version).unwrap()).unwrap()
}
