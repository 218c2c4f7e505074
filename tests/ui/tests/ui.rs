//! Compile-time behaviour of the derive: what it refuses, with which message, and what it
//! accepts. Each case under `fail/` and `pass/` is one concept; refused cases carry their
//! expected output.
//!
//! Only the refused cases go through trybuild. With no case to run, it checks them all in one
//! `cargo check` rather than building each, its dependencies included. The accepted cases are
//! modules of this test, compiled by the same build as the test itself, each a crate-root-free
//! file that names everything it uses.

#[test]
fn refused() {
    trybuild::TestCases::new().compile_fail("fail/*.rs");
}

// The accepted cases, each compiled as a module and its checks run.
#[allow(dead_code)]
#[path = "../pass/attributes.rs"]
mod attributes;
#[allow(dead_code)]
#[path = "../pass/basic.rs"]
mod basic;
#[allow(dead_code)]
#[path = "../pass/generic.rs"]
mod generic;
#[allow(dead_code)]
#[path = "../pass/own_types.rs"]
mod own_types;
#[allow(dead_code)]
#[path = "../pass/parts.rs"]
mod parts;

#[test]
fn accepted() {
    attributes::check();
    basic::check();
    generic::check();
    own_types::check();
    parts::check();
}
