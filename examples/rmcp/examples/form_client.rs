//! A terminal MCP client that starts any stdio server, or connects to a streamable HTTP one, and
//! renders each elicitation as a form.
//!
//! ```sh
//! cargo run -p elicit-rmcp-examples --example form_client -- cargo run -q -p elicit-rmcp-examples --example stdio_server
//! cargo run -p elicit-rmcp-examples --example form_client -- --url http://127.0.0.1:8000/mcp
//! ```
//!
//! The server is either a command to start (after the options, or after `--`), spoken to over
//! its stdin and stdout, or `--url URL`, a streamable HTTP endpoint. The HTTP client is plain
//! HTTP: it is built without TLS, which local servers and test suites do not need.
//!
//! Options, before the server command:
//! - `--tool NAME`: call this tool (repeatable); without it, pick one from a numbered list.
//! - `--arguments JSON`: the arguments of each tool called, a JSON object (`{}` by default).
//! - `--protocol VERSION`: `2025-06-18`, `2025-11-25` or `2026-07-28` (the default).
//! - `--answers FILE.json`: answer without a terminal. The file is a JSON array with one entry per
//!   elicitation, in order: `"decline"`, `"cancel"`, `"accept"` (URL mode), `{"accept": {field:
//!   text}}` typed into the form as a person would (a list of texts is several tries at a field,
//!   each mistake printed), or `{"raw": {..}}` to send content unchecked.
//!
//! In the form: Enter keeps a field's default or skips an optional field; `:decline` refuses the
//! form; `:cancel`, Esc then Enter, or end of input dismisses it.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use elicit_core::client::Request;
use elicit_core::schema::{Choice, Kind, Property, RequestedSchema};
use elicit_core::{ElicitResult, FormRequest, UrlRequest};
use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult as RmcpResult, ElicitationAction, ElicitationCapability, ErrorData,
    FormElicitationCapability, Implementation, ProtocolVersion, UrlElicitationCapability,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Map, Value};

/// One answer to a field or a form.
enum Reply {
    Text(String),
    Decline,
    Cancel,
}

/// Where answers come from: the terminal, or the `--answers` file.
enum Source {
    Terminal,
    Script(VecDeque<Value>),
}

struct Options {
    tools: Vec<String>,
    arguments: Option<Map<String, Value>>,
    protocol: String,
    answers: Option<String>,
    /// The server: a command to start and speak stdio with, or a streamable HTTP endpoint.
    server: Server,
}

enum Server {
    Command(Vec<String>),
    Url(String),
}

impl Server {
    /// How the forms name the server until it names itself.
    fn describe(&self) -> String {
        match self {
            Server::Command(command) => command.join(" "),
            Server::Url(url) => url.clone(),
        }
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: form_client [--tool NAME]... [--arguments JSON] [--protocol VERSION] [--answers FILE.json] (--url URL | [--] COMMAND [ARGS...])"
    );
    std::process::exit(2);
}

fn parse_args() -> Options {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        tools: Vec::new(),
        arguments: None,
        protocol: "2026-07-28".into(),
        answers: None,
        server: Server::Command(Vec::new()),
    };
    let mut url = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--tool" => options.tools.push(args.next().unwrap_or_else(|| usage())),
            "--protocol" => options.protocol = args.next().unwrap_or_else(|| usage()),
            "--arguments" => {
                let text = args.next().unwrap_or_else(|| usage());
                match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Object(map)) => options.arguments = Some(map),
                    _ => {
                        eprintln!(
                            "--arguments must be a JSON object, such as '{{\"service\":\"api\"}}'"
                        );
                        std::process::exit(2);
                    }
                }
            }
            "--answers" => options.answers = Some(args.next().unwrap_or_else(|| usage())),
            "--url" => url = Some(args.next().unwrap_or_else(|| usage())),
            "--" => {
                options.server = Server::Command(args.collect());
                break;
            }
            option if option.starts_with("--") => usage(),
            // The first word that is not an option starts the server's command.
            _ => {
                options.server = Server::Command(std::iter::once(arg).chain(args).collect());
                break;
            }
        }
    }
    match (url, &options.server) {
        (Some(url), Server::Command(command)) if command.is_empty() => {
            options.server = Server::Url(url);
        }
        (None, Server::Command(command)) if !command.is_empty() => {}
        // Neither a server nor a URL, or both.
        _ => usage(),
    }
    options
}

fn say(text: &str) {
    println!("{text}");
    let _ = std::io::stdout().flush();
}

/// Reads one line from the terminal: `None` at end of input.
fn read_line() -> Option<String> {
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_owned()),
    }
}

fn terminal_reply() -> Reply {
    match read_line() {
        None => Reply::Cancel,
        Some(line) if line.contains('\u{1b}') || line.trim() == ":cancel" => Reply::Cancel,
        Some(line) if line.trim() == ":decline" => Reply::Decline,
        Some(line) => Reply::Text(line),
    }
}

fn choice_list(choices: &[Choice]) -> String {
    choices
        .iter()
        .enumerate()
        .map(|(i, c)| format!("  {}) {}", i + 1, c.title.as_deref().unwrap_or(&c.value)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Numbers typed for a choice field become the choices' values.
fn numbers_to_values(text: &str, choices: &[Choice]) -> String {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            match part.parse::<usize>() {
                Ok(n) if (1..=choices.len()).contains(&n) => choices[n - 1].value.clone(),
                _ => part.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe(prop: &Property) -> String {
    let label = prop.title.clone().unwrap_or_else(|| prop.name.clone());
    let mut line = format!("{label} [{}]", prop.kind.json_type());
    if prop.required {
        line.push_str(" (required)");
    }
    if let Some(default) = prop.kind.default_value() {
        line.push_str(&format!(" (default {default})"));
    }
    if let Some(description) = &prop.description {
        line.push_str(&format!("\n  {description}"));
    }
    match &prop.kind {
        Kind::Select(rules) => {
            line.push_str(&format!("\n{}\n  (a number)", choice_list(&rules.choices)))
        }
        Kind::MultiSelect(rules) => line.push_str(&format!(
            "\n{}\n  (numbers, separated by commas)",
            choice_list(&rules.choices)
        )),
        Kind::Boolean(_) => line.push_str("\n  (y/n)"),
        _ => {}
    }
    line
}

/// Fills the form field by field, checking each entry and asking again on a mistake.
/// `echo` prints each answer after the prompt, for answers that do not come from a person
/// typing.
fn fill(
    schema: &RequestedSchema,
    echo: bool,
    mut next: impl FnMut(&Property) -> Reply,
) -> ElicitResult<Map<String, Value>> {
    let mut content = Map::new();
    for prop in schema.properties() {
        say(&describe(prop));
        loop {
            print!("> ");
            let _ = std::io::stdout().flush();
            let text = match next(prop) {
                Reply::Decline => return ElicitResult::Decline,
                Reply::Cancel => return ElicitResult::Cancel,
                Reply::Text(text) => text,
            };
            if echo {
                say(&text);
            }
            let text = match &prop.kind {
                Kind::Select(r) => numbers_to_values(&text, &r.choices),
                Kind::MultiSelect(r) => numbers_to_values(&text, &r.choices),
                _ => text,
            };
            let value = match schema.coerce_text(&prop.name, &text) {
                Ok(value) => value,
                Err(e) => {
                    say(&format!("  ✗ {e}"));
                    continue;
                }
            };
            let Some(value) = value else {
                if prop.required && !prop.kind.has_default() {
                    say("  ✗ this field is required");
                    continue;
                }
                break;
            };
            match schema.validate_property(&prop.name, &value) {
                Ok(()) => {
                    content.insert(prop.name.clone(), value);
                    break;
                }
                Err(e) => say(&format!("  ✗ {e}")),
            }
        }
    }
    match schema.accept(content) {
        Ok(result) => result,
        Err(e) => {
            say(&format!(
                "the form is still invalid, so it is dismissed:\n{e}"
            ));
            ElicitResult::Cancel
        }
    }
}

/// An `--answers` entry for a form: field texts, tried in turn.
fn scripted_form(
    schema: &RequestedSchema,
    fields: &Map<String, Value>,
) -> ElicitResult<Map<String, Value>> {
    // Each field's tries, in order. A field the file does not mention is left empty once (Enter);
    // asked again after its tries are used up, the input has ended, as if the user closed the form.
    let mut tries: Map<String, Value> = fields.clone();
    fill(schema, true, |prop| {
        let queue = tries
            .entry(prop.name.clone())
            .or_insert_with(|| Value::Array(vec![Value::String(String::new())]));
        if !queue.is_array() {
            *queue = Value::Array(vec![queue.take()]);
        }
        let next = match queue {
            Value::Array(list) if !list.is_empty() => list.remove(0),
            _ => return Reply::Cancel,
        };
        match next {
            Value::String(s) if s == ":decline" => Reply::Decline,
            Value::String(s) if s == ":cancel" => Reply::Cancel,
            Value::String(s) => Reply::Text(s),
            other => Reply::Text(other.to_string()),
        }
    })
}

fn to_rmcp(result: ElicitResult<Map<String, Value>>) -> Result<RmcpResult, ErrorData> {
    RmcpResult::try_from(&result).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

struct FormClient {
    source: Arc<Mutex<Source>>,
    protocol: String,
    server_name: String,
}

impl FormClient {
    fn answer_form(
        &self,
        server: &str,
        request: FormRequest<'static>,
    ) -> Result<RmcpResult, ErrorData> {
        say(&format!("\n── {server} asks ──\n{}\n", request.message()));
        let schema = request.schema().clone();
        let scripted = match &mut *self
            .source
            .lock()
            .map_err(|_| ErrorData::internal_error("lock", None))?
        {
            Source::Terminal => None,
            Source::Script(queue) => {
                Some(queue.pop_front().unwrap_or(Value::String("cancel".into())))
            }
        };
        let result = match scripted {
            None => fill(&schema, false, |_| terminal_reply()),
            Some(Value::String(word)) if word == "decline" => ElicitResult::Decline,
            Some(Value::Object(entry)) => match (entry.get("accept"), entry.get("raw")) {
                (Some(Value::Object(fields)), _) => scripted_form(&schema, fields),
                (_, Some(Value::Object(raw))) => {
                    say("(sending the scripted content unchecked)");
                    ElicitResult::Accept(raw.clone())
                }
                _ => ElicitResult::Cancel,
            },
            Some(_) => ElicitResult::Cancel,
        };
        say(&format!("→ {}", result.action()));
        to_rmcp(result)
    }

    fn answer_url(
        &self,
        server: &str,
        request: UrlRequest<'static>,
    ) -> Result<RmcpResult, ErrorData> {
        say(&format!(
            "\n── {server} asks you to open a page ──\n{}\n{}\n(y to open, n to decline)",
            request.message(),
            request.url()
        ));
        let word = match &mut *self
            .source
            .lock()
            .map_err(|_| ErrorData::internal_error("lock", None))?
        {
            Source::Terminal => match terminal_reply() {
                Reply::Text(t) if t.trim().eq_ignore_ascii_case("y") => "accept".to_owned(),
                Reply::Text(t) if t.trim().eq_ignore_ascii_case("n") => "decline".to_owned(),
                Reply::Decline => "decline".to_owned(),
                _ => "cancel".to_owned(),
            },
            Source::Script(queue) => queue
                .pop_front()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_else(|| "cancel".into()),
        };
        let action = match word.as_str() {
            "accept" => ElicitationAction::Accept,
            "decline" => ElicitationAction::Decline,
            _ => ElicitationAction::Cancel,
        };
        say(&format!("→ {word}"));
        Ok(RmcpResult::new(action))
    }
}

impl ClientHandler for FormClient {
    fn get_info(&self) -> ClientConfig {
        let capabilities = ClientCapabilities::builder()
            .enable_elicitation_with(
                ElicitationCapability::new()
                    .with_form(FormElicitationCapability::default())
                    .with_url(UrlElicitationCapability::default()),
            )
            .build();
        let mut config = ClientConfig::new(
            capabilities,
            Implementation::new("elicit-form-client", env!("CARGO_PKG_VERSION")),
        );
        if let Ok(version) =
            serde_json::from_value::<ProtocolVersion>(Value::String(self.protocol.clone()))
        {
            config.protocol_version = version;
        }
        config
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<RmcpResult, ErrorData> {
        let server = context
            .peer
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|i| i.name.clone()))
            .unwrap_or_else(|| self.server_name.clone());
        // The version the connection speaks, and the request read as that version's params.
        let version = context
            .peer
            .peer_info()
            .map(|info| info.protocol_version.to_string())
            .unwrap_or_else(|| self.protocol.clone())
            .parse::<elicit_core::ProtocolVersion>()
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        let params = serde_json::to_value(&request)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        match Request::from_params(&params, version) {
            Ok(Request::Form(form)) => self.answer_form(&server, form),
            Ok(Request::Url(url)) => self.answer_url(&server, url),
            Ok(_) => Err(ErrorData::invalid_params(
                "a request of an unknown kind",
                None,
            )),
            Err(e) => Err(ErrorData::invalid_params(
                format!("cannot show this request: {e}"),
                None,
            )),
        }
    }
}

fn pick_tool(names: &[String]) -> Option<String> {
    say("Tools:");
    for (i, name) in names.iter().enumerate() {
        say(&format!("  {}) {name}", i + 1));
    }
    print!("Which tool? ");
    let _ = std::io::stdout().flush();
    let line = read_line()?;
    let n: usize = line.trim().parse().ok()?;
    names.get(n.checked_sub(1)?).cloned()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let options = parse_args();
    let source = match &options.answers {
        None => Source::Terminal,
        Some(path) => {
            let text = std::fs::read_to_string(path)?;
            let Value::Array(entries) = serde_json::from_str(&text)? else {
                return Err("the answers file must be a JSON array".into());
            };
            Source::Script(entries.into())
        }
    };
    let scripted = options.answers.is_some();
    let client = FormClient {
        source: Arc::new(Mutex::new(source)),
        protocol: options.protocol.clone(),
        server_name: options.server.describe(),
    };
    let lifecycle = if options.protocol.as_str() >= "2026-07-28" {
        let version =
            serde_json::from_value::<ProtocolVersion>(Value::String(options.protocol.clone()))?;
        ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    let service = match &options.server {
        Server::Command(command) => {
            let mut child = tokio::process::Command::new(&command[0]);
            child.args(&command[1..]);
            client
                .serve_with_lifecycle(TokioChildProcess::new(child)?, lifecycle)
                .await?
        }
        Server::Url(url) => {
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            client.serve_with_lifecycle(transport, lifecycle).await?
        }
    };
    let names: Vec<String> = service
        .list_all_tools()
        .await?
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    let tools = if !options.tools.is_empty() {
        options.tools.clone()
    } else if scripted {
        return Err("--answers needs --tool".into());
    } else {
        pick_tool(&names).into_iter().collect()
    };
    let mut failed = false;
    for tool in tools {
        let mut params = CallToolRequestParams::new(tool.clone());
        params.arguments = options.arguments.clone();
        let result = service.call_tool(params).await?;
        let texts: Vec<String> = result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        let is_error = result.is_error == Some(true);
        failed |= is_error;
        say(&format!(
            "\n{tool} {}:\n{}",
            if is_error { "failed" } else { "returned" },
            texts.join("\n")
        ));
    }
    service.cancel().await?;
    if failed {
        std::process::exit(1);
    }
    Ok(())
}
