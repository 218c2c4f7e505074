use elicit_core::Elicit;

#[derive(Elicit)]
union Bits {
    a: u32,
    b: f32,
}
fn main() {}
