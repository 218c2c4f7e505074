//! `Ask`: one tool body on every protocol version, tested with a real rmcp client and server.

mod flows;
mod harness;
mod rounds;
mod runtime;
mod state;
mod tool_macro;
