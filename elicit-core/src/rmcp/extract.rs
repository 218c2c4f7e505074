//! `Ask` as an argument of a `#[tool]` function, and [`keep_arguments`], which lets it read the
//! call's arguments whatever the order of the function's arguments.

use std::collections::BTreeMap;

use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{CallToolResponse, ErrorData, JsonObject, Tool};

use crate::ask::{Ask, StateKey};

/// The call's arguments as they arrived, kept by [`keep_arguments`] before any extractor runs.
#[derive(Clone)]
struct CallArguments(Option<JsonObject>);

/// The key that seals the states of the call's tool, set by [`KeepArguments::with_key`] or
/// [`KeepArguments::with_tool_key`].
#[derive(Clone)]
struct CallKey(StateKey);

/// A tool router whose calls keep their arguments for [`Ask`], so that `Ask` reads them even
/// when rmcp's `Parameters`, which takes them, comes first in a `#[tool]` function, and when
/// the client sent none (read as `{}`). It can also give the tools their own
/// [`StateKey`]s. Made by [`keep_arguments`]; it has the three methods `#[tool_handler]`
/// calls.
#[derive(Debug)]
pub struct KeepArguments<S> {
    router: ToolRouter<S>,
    key: Option<StateKey>,
    tool_keys: BTreeMap<String, StateKey>,
}

/// Wraps a `#[tool_router]` router so that every tool's `Ask` sees the call's own arguments,
/// whatever the order of the tool's extractors:
///
/// ```
/// use elicit_core::prelude::*;
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::model::*;
/// use rmcp::{tool, tool_handler, tool_router};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Floor {
///     floor: Option<u8>,
/// }
///
/// #[derive(Clone)]
/// struct Rooms;
///
/// #[tool_router]
/// impl Rooms {
///     #[tool(description = "Book a room")]
///     async fn book(&self, Parameters(floor): Parameters<Floor>, ask: Ask) -> Asked<CallToolResult> {
///         ask.run(async { Ok(CallToolResult::success(vec![ContentBlock::text(format!("{:?}", floor.floor))])) })
///             .await
///     }
/// }
///
/// #[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
/// impl rmcp::ServerHandler for Rooms {}
/// # fn main() {}
/// ```
#[must_use]
pub fn keep_arguments<S>(router: ToolRouter<S>) -> KeepArguments<S> {
    KeepArguments {
        router,
        key: None,
        tool_keys: BTreeMap::new(),
    }
}

impl<S: Send + Sync + 'static> KeepArguments<S> {
    /// Seals the states of every tool of the router with `key`, instead of the
    /// [installed](StateKey::installed) one.
    #[must_use]
    pub fn with_key(mut self, key: StateKey) -> Self {
        self.key = Some(key);
        self
    }

    /// Seals the states of the tool named `tool` with `key`: a key of its own, with its own
    /// time to live, principal or store.
    #[must_use]
    pub fn with_tool_key(mut self, tool: impl Into<String>, key: StateKey) -> Self {
        self.tool_keys.insert(tool.into(), key);
        self
    }

    /// Calls the tool, keeping its arguments (and its key) for `Ask` first.
    ///
    /// # Errors
    ///
    /// As rmcp's `ToolRouter::call`.
    pub async fn call(
        &self,
        mut context: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, ErrorData> {
        let kept = CallArguments(context.arguments.clone());
        context.request_context.extensions.insert(kept);
        let key = self
            .tool_keys
            .get(context.name.as_ref())
            .or(self.key.as_ref());
        if let Some(key) = key {
            context
                .request_context
                .extensions
                .insert(CallKey(key.clone()));
        }
        self.router.call(context).await
    }

    /// Every tool, as rmcp's `ToolRouter::list_all`.
    #[must_use]
    pub fn list_all(&self) -> Vec<Tool> {
        self.router.list_all()
    }

    /// The tool named `name`, as rmcp's `ToolRouter::get`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.router.get(name)
    }
}

/// `Ask` as an argument of a `#[tool]` function. It reads the call's arguments without taking
/// them.
///
/// rmcp's `Parameters` takes them, so listed after it `Ask` would find none, and a client may
/// send none at all: `Ask` cannot tell the two apart. So:
///
/// - Served through [`keep_arguments`], `Ask` reads the call's own arguments in any order, and
///   a call without `arguments` as one with `{}`. This is the way to serve tools that ask.
/// - Otherwise, where it finds no arguments for a tool whose input schema has properties, the
///   call fails, on every version, with an error that says to serve the tools through
///   [`keep_arguments`]: it never seals state bound to arguments it did not see.
///
/// Its key is the one [`KeepArguments::with_tool_key`] or [`KeepArguments::with_key`] set,
/// or else the [installed](StateKey::installed) one.
impl<S: ::rmcp::ServerHandler> FromContextPart<ToolCallContext<'_, S>> for Ask {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let tool = context.service.get_tool(&context.name);
        let extensions = &context.request_context.extensions;
        let kept = extensions.get::<CallArguments>().cloned();
        let key = extensions.get::<CallKey>().map(|CallKey(key)| key.clone());
        let arguments = match kept {
            Some(CallArguments(arguments)) => arguments,
            None if context.arguments.is_none() && tool.as_ref().is_some_and(takes_arguments) => {
                return Err(ErrorData::internal_error(
                    format!(
                        "`Ask` found no arguments for tool `{}`, which takes some: rmcp's \
                         `Parameters` takes them before `Ask` can read them, and a client may \
                         send none, which `Ask` cannot tell apart. Serve the tools with \
                         `#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]`, \
                         which keeps them for `Ask` in any order and reads a call without \
                         arguments as `{{}}`",
                        context.name
                    ),
                    None,
                ));
            }
            None => context.arguments.clone(),
        };
        let output_schema = tool.is_some_and(|tool| tool.output_schema.is_some());
        let ask = Ask::of_rmcp(
            context.request_context.clone(),
            crate::ask::Method::ToolsCall,
            &context.name,
            arguments.as_ref(),
            context.input_responses.as_ref(),
            context.request_state.clone(),
            output_schema,
        );
        Ok(match key {
            Some(key) => ask.with_key(key),
            None => ask,
        })
    }
}

/// Whether `tool`'s input schema has properties.
fn takes_arguments(tool: &Tool) -> bool {
    tool.input_schema
        .get("properties")
        .and_then(serde_json::Value::as_object)
        .is_some_and(|properties| !properties.is_empty())
}
