//! Unit tests of `bound`, beside the crate's sources so that they reach its private items.

use super::*;

#[test]
fn integers_and_floats_compare_exactly() {
    let two_53 = 9_007_199_254_740_992.0;
    assert_eq!(
        int_vs_float(9_007_199_254_740_993, two_53),
        Ordering::Greater
    );
    assert_eq!(int_vs_float(9_007_199_254_740_992, two_53), Ordering::Equal);
    assert_eq!(int_vs_float(3, 3.5), Ordering::Less);
    assert_eq!(int_vs_float(4, 3.5), Ordering::Greater);
    assert_eq!(int_vs_float(-3, -3.5), Ordering::Greater);
    assert_eq!(int_vs_float(-4, -3.5), Ordering::Less);
    assert_eq!(int_vs_float(0, -0.0), Ordering::Equal);
    assert_eq!(int_vs_float(i128::MAX, 1e300), Ordering::Less);
    assert_eq!(int_vs_float(i128::MIN, -1e300), Ordering::Greater);
    assert_eq!(int_vs_float(i128::MIN, -I128_LIMIT), Ordering::Equal);
    assert_eq!(
        Num::U(9_007_199_254_806_528).cmp_bound(Bound::Int(9_007_199_254_806_527)),
        Ordering::Greater
    );
    assert_eq!(
        Num::F(0.999_999_999_999_999_9).cmp_bound(Bound::Int(1)),
        Ordering::Less
    );
}

/// Reading a decimal of 16 or more digits is correctly rounded only with serde_json's
/// `float_roundtrip`, which this crate turns on. The workspace's other packages may turn it
/// on too, so this holds only when elicit-core is tested on its own (`.ci/run` does).
#[test]
fn serde_json_reads_decimals_correctly_rounded() {
    let read = |s: &str| serde_json::from_str::<f64>(s).unwrap();
    assert!(read("0.9999999999999999") < 1.0);
    assert!(read("100.00000000000001") > 100.0);
    assert_eq!(read("3.9999999999999996"), 3.9999999999999996);
    assert_eq!(read("-9007199254740988.0"), -9_007_199_254_740_988.0);
}
