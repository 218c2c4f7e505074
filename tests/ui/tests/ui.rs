//! Compile-time behaviour of the derive: what it refuses, with which message, and what it
//! accepts. Each case under `fail/` and `pass/` is one concept; refused cases carry their expected output.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
    t.pass("pass/*.rs");
}
