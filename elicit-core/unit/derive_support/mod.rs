//! Unit tests of `derive_support`, beside the crate's sources so that they reach its private items.

use super::*;

/// The panic names the type and says why its schema cannot be sent.
#[test]
fn an_unsendable_schema_panics_naming_the_type() {
    let error = RequestedSchema::from_json("[]").expect_err("not a schema");
    let panic = std::panic::catch_unwind(|| unsendable("my::Form", &error)).expect_err("it panics");
    let message = panic.downcast_ref::<String>().expect("a formatted message");
    assert_eq!(
        message,
        &format!("elicit: the schema of `my::Form` cannot be sent: {error}")
    );
}

/// A form whose `Deserialize` lists the fields the derive saw, or not.
struct Listed<const N: usize>;

const NAMES: [&str; 3] = ["a", "b", "c"];
const HOOK: FieldHooks = FieldHooks {
    variants: || None,
    enum_names: || false,
    option: || false,
    part: None,
};

impl<'de, const N: usize> serde::Deserialize<'de> for Listed<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let names: &'static [&'static str] = match N {
            3 => &NAMES,
            _ => &[],
        };
        d.deserialize_struct("Listed", names, serde::de::IgnoredAny)
            .map(|_| Listed)
    }
}

impl<const N: usize> schemars::JsonSchema for Listed<N> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Listed".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "required": ["a", "b"]
        })
    }
}

impl<const N: usize> Elicit for Listed<N> {
    const __ELICIT_MESSAGE: &'static str = "?";
    const __ELICIT_FIELDS: &'static [FieldHooks] = &[HOOK, HOOK];
    fn __elicit_cache() -> &'static SchemaCache {
        SchemaCache::for_type::<Self>()
    }
}

/// A `Deserialize` that lists other fields than the derive saw is an error, never a
/// schema with its fields' hooks paired wrongly; one that lists none leaves the schema's
/// own order.
#[test]
fn fields_that_do_not_pair_with_the_hooks_are_an_error() {
    let error = form_fields::<Listed<3>>()
        .err()
        .expect("three names, two hooks");
    assert!(
        error
            .to_string()
            .contains("reads 3 fields and the derive saw 2"),
        "{error}"
    );
    assert!(Listed::<3>::requested_schema_for(ProtocolVersion::LATEST).is_err());
    assert!(form_fields::<Listed<0>>().unwrap().is_empty());
    let schema = Listed::<0>::requested_schema_for(ProtocolVersion::LATEST).unwrap();
    assert_eq!(schema.properties().len(), 2);
}
