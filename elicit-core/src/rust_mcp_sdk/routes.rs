//! [`ask_routes!`](crate::ask_routes): a server's two routes to its tools, written once.

/// Writes both of a rust-mcp-sdk server's routes to its tools, inside its
/// `#[async_trait] impl ServerHandler` block: `handle_call_tool_request_mrtr`, for the calls
/// the SDK reads, and `handle_custom_request`, for a retry whose answers hold a number the SDK
/// cannot read (`2.5`, `3.0`), which it would otherwise answer "method not found" before the
/// tool runs. Both reach `call`, a method of the server:
///
/// ```text
/// async fn call(&self, tool: &str, arguments: Map<String, Value>, ask: Ask) -> Asked<R>
/// ```
///
/// with `R` a [`IntoCallToolResult`](crate::rust_mcp_sdk::IntoCallToolResult): the tool's
/// name, its arguments as JSON (`{}` where the call sent none, numbers as written) and its
/// `Ask`. The custom route makes the SDK's own checks of a `tools/call` first (see
/// [`ask_custom`](crate::rust_mcp_sdk::ask_custom)), and answers any other custom method
/// "method not found", as the SDK does. See [`crate::rust_mcp_sdk`] for a server written
/// with it.
#[macro_export]
macro_rules! ask_routes {
    ($call:path) => {
        fn handle_call_tool_request_mrtr<'life0, 'life1, 'async_trait>(
            &'life0 self,
            params: $crate::rust_mcp_sdk::__sdk::schema::CallToolRequestParams,
            _context: &'life1 $crate::rust_mcp_sdk::__sdk::RequestContext,
            runtime: ::std::sync::Arc<dyn $crate::rust_mcp_sdk::__sdk::McpServer>,
        ) -> $crate::rust_mcp_sdk::__Route<
            'async_trait,
            $crate::rust_mcp_sdk::__sdk::schema::ServerResult,
        >
        where
            'life0: 'async_trait,
            'life1: 'async_trait,
            Self: 'async_trait,
        {
            ::std::boxed::Box::pin(async move {
                let ask = $crate::rust_mcp_sdk::ask(&params, &runtime).await;
                let arguments = params.arguments.clone().unwrap_or_default();
                $call(self, &params.name, arguments, ask)
                    .await
                    .into_server_result()
            })
        }

        fn handle_custom_request<'life0, 'life1, 'async_trait>(
            &'life0 self,
            request: $crate::rust_mcp_sdk::__sdk::schema::schema_utils::CustomRequest,
            _context: &'life1 $crate::rust_mcp_sdk::__sdk::RequestContext,
            runtime: ::std::sync::Arc<dyn $crate::rust_mcp_sdk::__sdk::McpServer>,
        ) -> $crate::rust_mcp_sdk::__Route<
            'async_trait,
            $crate::rust_mcp_sdk::__sdk::schema::GenericResult,
        >
        where
            'life0: 'async_trait,
            'life1: 'async_trait,
            Self: 'async_trait,
        {
            ::std::boxed::Box::pin(async move {
                match $crate::rust_mcp_sdk::ask_custom(&request, &runtime, self).await? {
                    ::core::option::Option::Some(call) => {
                        $call(self, &call.name, call.arguments, call.ask)
                            .await
                            .into_generic_result()
                    }
                    ::core::option::Option::None => ::core::result::Result::Err(
                        $crate::rust_mcp_sdk::__sdk::schema::RpcError::method_not_found(),
                    ),
                }
            })
        }
    };
}
