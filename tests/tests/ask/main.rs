//! `Ask`: one tool body on every protocol version, driven by the test kit
//! (`elicit-test`), a real rmcp client in the same process.

mod clients;
mod fallback;
mod flows;
mod identity;
mod kit;
mod misuse;
mod parts;
mod pizza;
mod real_clients;
mod runtime;
mod sampling;
mod scale;
mod server;
mod state;
mod tool_macro;
mod traces;
