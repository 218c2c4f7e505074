//! A tool declared to return `Result` that ends with `ask.run(..).await`: the run's ending is an
//! `Asked`, which on 2026-07-28 may be a request for input a `Result<CallToolResult, _>` cannot
//! carry. The tool returns `Asked<CallToolResult>` (a `#[tool]` function), or
//! `.into_response()` where a handler returns rmcp's `CallToolResponse`.
use elicit_core::prelude::*;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};

async fn plan(ask: Ask) -> Result<CallToolResult, ErrorData> {
    ask.run(async { Ok(CallToolResult::success(vec![ContentBlock::text("Oslo")])) })
        .await
}

fn main() {
    let _ = plan;
}
