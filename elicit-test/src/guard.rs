//! The server side: the user's server, with each request handled in a task of its own, so that
//! a panic ends the call with [`TestError::Panicked`] instead of leaving it unanswered.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{ErrorData, ProtocolVersion as RmcpVersion, ServerConfig};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, ServiceRole};
use rmcp::{ServerHandler, Service};

use crate::log::Log;
use crate::transcript::TestError;

pub(super) struct Guarded<S> {
    pub(super) server: Arc<S>,
    pub(super) log: Arc<Log>,
}

impl<S: ServerHandler> Service<RoleServer> for Guarded<S> {
    async fn handle_request(
        &self,
        request: <RoleServer as ServiceRole>::PeerReq,
        context: RequestContext<RoleServer>,
    ) -> Result<<RoleServer as ServiceRole>::Resp, ErrorData> {
        let server = Arc::clone(&self.server);
        let task = tokio::spawn(async move { server.handle_request(request, context).await });
        match task.await {
            Ok(response) => response,
            Err(error) => {
                let message = match error.try_into_panic() {
                    Ok(panic) => panic
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic without a message".to_owned()),
                    Err(error) => error.to_string(),
                };
                self.log.fail(TestError::Panicked {
                    message: message.clone(),
                });
                Err(ErrorData::internal_error(message, None))
            }
        }
    }

    async fn handle_notification(
        &self,
        notification: <RoleServer as ServiceRole>::PeerNot,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server.handle_notification(notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        ServerHandler::get_info(&*self.server)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [RmcpVersion]> {
        ServerHandler::supported_protocol_versions(&*self.server)
    }
}
