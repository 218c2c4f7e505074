//! Compile-time behaviour of the derive: what it refuses, with which message, and what it
//! accepts. Each case under `ui/` is one concept; refused cases carry their expected output.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
