use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Pick.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Pick<T, const N: usize> {
    value: T,
    label: String,
}

fn schema<T: Elicit>() -> &'static elicit_core::schema::RequestedSchema {
    T::requested_schema()
}

pub fn check() {
    let _ = schema::<Pick<u8, 3>>();
    let _ = schema::<Pick<Option<bool>, 1>>();
}
