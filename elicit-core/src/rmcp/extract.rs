//! `Ask` as an argument of a `#[tool]` function, and [`keep_arguments`], which lets it read the
//! call's arguments whatever the order of the function's arguments.

use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{CallToolResponse, ErrorData, JsonObject, Tool};

use super::ask::Ask;
use super::state::StateKey;

/// The call's arguments as they arrived, kept by [`keep_arguments`] before any extractor runs.
#[derive(Clone)]
struct CallArguments(Option<JsonObject>);

/// A tool router whose calls keep their arguments for [`Ask`], so that `Ask` reads them even
/// when rmcp's `Parameters`, which takes them, comes first in a `#[tool]` function. Made by
/// [`keep_arguments`]; it has the three methods `#[tool_handler]` calls.
#[derive(Debug)]
pub struct KeepArguments<S>(ToolRouter<S>);

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
    KeepArguments(router)
}

impl<S: Send + Sync + 'static> KeepArguments<S> {
    /// Calls the tool, keeping its arguments for `Ask` first.
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
        self.0.call(context).await
    }

    /// Every tool, as rmcp's `ToolRouter::list_all`.
    #[must_use]
    pub fn list_all(&self) -> Vec<Tool> {
        self.0.list_all()
    }

    /// The tool named `name`, as rmcp's `ToolRouter::get`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.0.get(name)
    }
}

/// `Ask` as an argument of a `#[tool]` function. It reads the call's arguments without taking
/// them.
///
/// rmcp's `Parameters` takes them, so listed after it `Ask` would find none, and could neither
/// bind the sealed state to them nor answer a question from them. So:
///
/// - Served through [`keep_arguments`], `Ask` reads the call's own arguments in any order.
/// - Otherwise, where it finds no arguments for a tool whose input schema has properties, the
///   call fails, on every version, with an error that says how to fix it: that is either
///   `Parameters` listed first or a client that sent no `arguments` at all, which `Ask` cannot
///   tell apart, and it never seals state bound to arguments it did not see.
impl<S: ::rmcp::ServerHandler> FromContextPart<ToolCallContext<'_, S>> for Ask {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let tool = context.service.get_tool(&context.name);
        let kept = context
            .request_context
            .extensions
            .get::<CallArguments>()
            .cloned();
        let arguments = match kept {
            Some(CallArguments(arguments)) => arguments,
            None if context.arguments.is_none() && tool.as_ref().is_some_and(takes_arguments) => {
                return Err(ErrorData::internal_error(
                    format!(
                        "`Ask` found no arguments for tool `{}`, which takes some. List `Ask` \
                         before `Parameters` in the tool's signature (`Parameters` takes the \
                         arguments), or serve the tools with \
                         `#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]`, \
                         which keeps them for `Ask` in any order and for calls that send none",
                        context.name
                    ),
                    None,
                ));
            }
            None => context.arguments.clone(),
        };
        let output_schema = tool.is_some_and(|tool| tool.output_schema.is_some());
        Ok(Ask::from_parts(
            context.request_context.clone(),
            &context.name,
            arguments.as_ref(),
            context.input_responses.clone(),
            context.request_state.clone(),
            StateKey::installed().clone(),
        )
        .with_output_schema(output_schema))
    }
}

/// Whether `tool`'s input schema has properties.
fn takes_arguments(tool: &Tool) -> bool {
    tool.input_schema
        .get("properties")
        .and_then(serde_json::Value::as_object)
        .is_some_and(|properties| !properties.is_empty())
}
