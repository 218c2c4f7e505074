//! The client side: an rmcp client service that answers live requests from the script, exactly
//! as the script writes them, and records what it is sent.

use std::sync::Arc;

use rmcp::model::{
    self as m, ClientConfig, ClientResult, CustomResult, ErrorCode, ErrorData, ServerNotification,
    ServerRequest,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient, Service};
use serde_json::Value;

use crate::log::{Log, lock};
use crate::transcript::AskedForm;
use elicit_core::ProtocolVersion;

pub(super) struct Scripted {
    pub(super) log: Arc<Log>,
    pub(super) info: ClientConfig,
    pub(super) version: ProtocolVersion,
}

impl Scripted {
    /// The reply to one `elicitation/create`, as the script writes it: sent as raw JSON, so
    /// that a reply no client model could hold (an unknown action, say) reaches the server.
    async fn elicit(&self, request: m::ElicitRequestParams) -> Result<Value, ErrorData> {
        let asked = AskedForm::of(&request, self.version, None);
        let schema = asked.requested_schema.clone();
        let reply = self.reply(asked).await?;
        Ok(match &schema {
            Some(schema) => ticked(&reply, schema),
            None => reply,
        })
    }

    /// The script's reply to `asked`: its JSON, or its refusal as a JSON-RPC error.
    async fn reply(&self, asked: AskedForm) -> Result<Value, ErrorData> {
        let Some(answer) = self.log.answer(asked).await else {
            return Err(ErrorData::internal_error(
                "the script has no answer left",
                None,
            ));
        };
        match answer.refusal() {
            Some(message) => Err(ErrorData::new(
                ErrorCode::INVALID_REQUEST,
                message.to_owned(),
                None,
            )),
            None => Ok(answer.reply().clone()),
        }
    }

    /// The reply to a sampling or roots request, by its wire form.
    async fn other(&self, method: &str, params: Value) -> Result<ClientResult, ErrorData> {
        let asked = AskedForm::other(method, &params, self.version, None);
        let reply = self.reply(asked).await?;
        Ok(ClientResult::CustomResult(CustomResult(reply)))
    }
}

impl Service<RoleClient> for Scripted {
    async fn handle_request(
        &self,
        request: ServerRequest,
        _context: RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        match request {
            ServerRequest::PingRequest(_) => Ok(ClientResult::empty(())),
            ServerRequest::ElicitRequest(request) => self
                .elicit(request.params)
                .await
                .map(|reply| ClientResult::CustomResult(CustomResult(reply))),
            ServerRequest::CreateMessageRequest(request) => {
                let params = serde_json::to_value(&request.params).unwrap_or_default();
                self.other("sampling/createMessage", params).await
            }
            ServerRequest::ListRootsRequest(_) => {
                self.other("roots/list", Value::Object(Default::default()))
                    .await
            }
            _ => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "the scripted client answers elicitation, sampling and roots requests only",
                None,
            )),
        }
    }

    async fn handle_notification(
        &self,
        notification: ServerNotification,
        _context: NotificationContext<RoleClient>,
    ) -> Result<(), ErrorData> {
        if let ServerNotification::ProgressNotification(progress) = notification {
            lock(&self.log.progress).push(progress.params);
        }
        Ok(())
    }

    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }
}

/// A scripted answer as a person gives it to the form that was shown: a list for a
/// multi-select, where the form shows the multi-select as one box per choice (2025-06-18,
/// `FIELD__CHOICE`), ticks the boxes of the choices in the list and leaves the others
/// unticked. Any other answer goes as it is.
fn ticked(reply: &Value, schema: &Value) -> Value {
    let (Some(content), Some(properties)) = (
        reply.get("content").and_then(Value::as_object),
        schema.get("properties").and_then(Value::as_object),
    ) else {
        return reply.clone();
    };
    let mut out = serde_json::Map::new();
    for (key, value) in content {
        let prefix = format!("{key}__");
        let boxes: Vec<&String> = properties
            .keys()
            .filter(|name| name.starts_with(&prefix))
            .collect();
        match value.as_array() {
            Some(list) if !properties.contains_key(key) && !boxes.is_empty() => {
                for name in boxes {
                    let choice = &name[prefix.len()..];
                    let tick = list.iter().any(|item| item.as_str() == Some(choice));
                    out.insert(name.clone(), Value::Bool(tick));
                }
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    let mut reply = reply.clone();
    reply["content"] = Value::Object(out);
    reply
}
