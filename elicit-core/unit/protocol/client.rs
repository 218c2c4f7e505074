//! Unit tests of `protocol::client`, beside the crate's sources so that they reach its private items.

use super::*;

/// A build without `sampling` names the feature rather than calling the method unknown.
#[cfg(not(feature = "sampling"))]
#[test]
fn sampling_methods_name_their_feature() {
    for method in ["sampling/createMessage", "roots/list"] {
        let error =
            Request::from_method(method, &json!({}), ProtocolVersion::V2025_11_25).unwrap_err();
        assert!(error.to_string().contains("`sampling` feature"), "{error}");
    }
    let error =
        Request::from_method("tools/list", &json!({}), ProtocolVersion::V2025_11_25).unwrap_err();
    assert!(
        error.to_string().contains("not one a server asks"),
        "{error}"
    );
}

/// With `sampling`, both methods are read.
#[cfg(feature = "sampling")]
#[test]
fn sampling_methods_are_read() {
    let roots = Request::from_method("roots/list", &json!({}), ProtocolVersion::V2025_11_25);
    assert_eq!(roots, Ok(Request::Roots));
}
