//! Any value of a derived type, serialized, is accepted by its own schema and parses back equal.

use std::collections::{BTreeSet, HashSet};

use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult};
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    Elicit,
)]
#[serde(rename_all = "snake_case")]
enum Fruit {
    /// A red one
    Apple,
    Banana,
    #[schemars(title = "Cherry!")]
    Cherry,
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    Elicit,
)]
enum Size {
    S,
    M,
    L,
}

/// Fill in Order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "camelCase")]
struct Order {
    customer_name: String,
    note: Option<String>,
    quantity: u8,
    offset: i16,
    total_cents: u32,
    balance: i64,
    weight: f64,
    gift: bool,
    fruit: Fruit,
    size: Option<Size>,
    extras: Vec<Fruit>,
    sizes: BTreeSet<Size>,
    tags: HashSet<Fruit>,
    #[schemars(length(min = 1, max = 3))]
    code: String,
    #[schemars(range(min = 1, max = 10))]
    rating: u8,
    #[serde(default)]
    count: u64,
}

fn fruit() -> impl Strategy<Value = Fruit> {
    prop_oneof![Just(Fruit::Apple), Just(Fruit::Banana), Just(Fruit::Cherry)]
}

fn size() -> impl Strategy<Value = Size> {
    prop_oneof![Just(Size::S), Just(Size::M), Just(Size::L)]
}

prop_compose! {
    fn order()(
        customer_name in any::<String>(),
        note in proptest::option::of(any::<String>()),
        quantity in any::<u8>(),
        offset in any::<i16>(),
        total_cents in any::<u32>(),
        // JSON peers read integers exactly up to 2^53 - 1: the schema's documented range.
        balance in -9_007_199_254_740_991i64..=9_007_199_254_740_991,
        // Multiples of 1/1024 print and parse exactly.
        weight in any::<i32>().prop_map(|n| f64::from(n) / 1024.0),
        gift in any::<bool>(),
        fruit in fruit(),
        size in proptest::option::of(size()),
        // Each choice once, in any order: a multi-select refuses a repeat.
        extras in proptest::collection::hash_set(fruit(), 0..3)
            .prop_map(|set| set.into_iter().collect::<Vec<_>>())
            .prop_shuffle(),
        sizes in proptest::collection::btree_set(size(), 0..3),
        tags in proptest::collection::hash_set(fruit(), 0..3),
        code in "\\PC{1,3}",
        rating in 1u8..=10,
        count in 0u64..=9_007_199_254_740_991,
    ) -> Order {
        Order { customer_name, note, quantity, offset, total_cents, balance, weight, gift, fruit, size, extras, sizes, tags, code, rating, count }
    }
}

proptest! {
    #[test]
    fn values_round_trip_through_their_own_schema(order in order()) {
        let reply = serde_json::to_string(&ElicitResult::Accept(order.clone())).unwrap();
        // The runtime schema (the same rules) accepts what serde wrote...
        let schema: &RequestedSchema = Order::requested_schema();
        let wire: serde_json::Value = serde_json::from_str(&reply).unwrap();
        let content = wire["content"].as_object().unwrap();
        prop_assert!(content.values().all(|v| !v.is_null()), "null is never written: {}", reply);
        prop_assert_eq!(content.contains_key("note"), order.note.is_some());
        let parsed = ElicitResult::<Order>::from_json(&reply);
        prop_assert!(parsed.is_ok(), "{}\n{:?}\n{}", reply, parsed, serde_json::to_string(schema).unwrap());
        // ...and it parses back to the same value, through both entry points.
        prop_assert_eq!(parsed.unwrap(), ElicitResult::Accept(order.clone()));
        let via_serde: ElicitResult<Order> = serde_json::from_str(&reply).unwrap();
        prop_assert_eq!(via_serde, ElicitResult::Accept(order));
    }
}

#[test]
fn the_schema_conforms() {
    elicit_tests::assert_type_conforms::<Order>();
}
