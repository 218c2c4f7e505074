//! The client side: an rmcp `ClientHandler` that answers live requests from the script and
//! records what it is sent.

use std::sync::Arc;

use ::rmcp::ClientHandler;
use ::rmcp::model::{self as m, ClientConfig, ErrorData};
use ::rmcp::service::{NotificationContext, RequestContext, RoleClient};

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
        let Some(reply) = self.log.answer(asked).await else {
            return Err(ErrorData::internal_error(
                "the script has no answer left",
                None,
            ));
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
