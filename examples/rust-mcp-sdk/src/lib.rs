//! What the example servers share: their details, and a tool list.

use rust_mcp_sdk::ServerDetails;
use rust_mcp_sdk::schema::{
    Implementation, ListToolsResult, ListToolsResultCacheScope, RpcError, ServerCapabilities,
    ServerCapabilitiesTools, Tool,
};

/// A server named `name` with tools and `capabilities`' other entries.
#[must_use]
pub fn details(
    name: &str,
    capabilities: ServerCapabilities,
    instructions: Option<&str>,
) -> ServerDetails {
    ServerDetails {
        server_info: Implementation {
            name: name.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            title: None,
            description: None,
            icons: Vec::new(),
            website_url: None,
        },
        capabilities: ServerCapabilities {
            tools: Some(ServerCapabilitiesTools { list_changed: None }),
            ..capabilities
        },
        meta: None,
        instructions: instructions.map(Into::into),
    }
}

/// The tools `(name, description, inputSchema)` as a `tools/list` result.
///
/// # Errors
///
/// -32603 for an input schema the SDK's `Tool` cannot hold.
pub fn tools<'a>(
    tools: impl IntoIterator<Item = (&'a str, &'a str, serde_json::Value)>,
) -> Result<ListToolsResult, RpcError> {
    let tools = tools
        .into_iter()
        .map(|(name, description, input_schema)| {
            serde_json::from_value::<Tool>(serde_json::json!({
                "name": name,
                "description": description,
                "inputSchema": input_schema,
            }))
            .map_err(fault)
        })
        .collect::<Result<_, _>>()?;
    Ok(ListToolsResult {
        cache_scope: ListToolsResultCacheScope::Private,
        result_type: "complete".to_owned(),
        ttl_ms: 0,
        meta: None,
        next_cursor: None,
        tools,
    })
}

/// A fault in the server, as a JSON-RPC error.
pub fn fault(e: impl std::fmt::Display) -> RpcError {
    RpcError {
        code: -32603,
        message: e.to_string(),
        data: None,
    }
}
