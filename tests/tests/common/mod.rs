//! Strategies shared by the property tests.

use proptest::prelude::*;
use serde_json::Value;

/// Arbitrary JSON, biased towards what a form reply holds: objects keyed by `keys` (or random
/// short names), with numbers at the edges of integer ranges and `strings` among the texts.
pub fn any_json(
    keys: &'static [&'static str],
    strings: &'static [&'static str],
) -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        proptest::sample::select(keys).prop_map(str::to_owned),
        "\\PC{0,6}"
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-3i64..300).prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        proptest::sample::select(strings).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(key.clone(), inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
