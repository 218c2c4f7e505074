//! The client side: an rmcp `ClientHandler` that answers live requests from the script and
//! records what it is sent.

use std::sync::Arc;

use ::rmcp::ClientHandler;
use ::rmcp::model::{self as m, ClientConfig, ErrorData};
use ::rmcp::service::{NotificationContext, RequestContext, RoleClient};
use serde_json::Value;

use super::log::{Log, lock};
use super::outcome::{AskedForm, TestError};
use crate::version::ProtocolVersion;

pub(super) struct Scripted {
    pub(super) log: Arc<Log>,
    pub(super) info: ClientConfig,
    pub(super) version: ProtocolVersion,
}

impl ClientHandler for Scripted {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn create_elicitation(
        &self,
        request: m::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<m::ElicitResult, ErrorData> {
        let asked = AskedForm::of(&request, self.version, None);
        let schema = asked.requested_schema.clone();
        let Some(reply) = self.log.answer(asked).await else {
            return Err(ErrorData::internal_error(
                "the script has no answer left",
                None,
            ));
        };
        let reply = match &schema {
            Some(schema) => ticked(&reply, schema),
            None => reply,
        };
        serde_json::from_value(reply.clone()).map_err(|e| {
            let error = format!("a scripted reply rmcp's client cannot send: {reply}: {e}");
            self.log.fail(TestError::Unexpected(error.clone()));
            ErrorData::internal_error(error, None)
        })
    }

    async fn on_progress(
        &self,
        params: m::ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        lock(&self.log.progress).push(params);
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
