//! A cached `requested_schema()` call neither rebuilds nor allocates. This binary counts every
//! allocation with its own global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use elicit_core::{Elicit, ProtocolVersion};
use schemars::JsonSchema;
use serde::Deserialize;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwards the caller's layout unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout in `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Fill in Plain.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Plain {
    name: String,
    age: u8,
}

/// Fill in Wrapper.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Wrapper<T> {
    value: T,
}

fn allocations_during(f: impl Fn()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for _ in 0..100 {
        f();
    }
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

// One test function, so no other test thread allocates while counting.
#[test]
fn cached_schemas_do_not_allocate() {
    let first = allocations_during(|| {
        let _ = Plain::requested_schema();
    });
    assert!(first > 0, "the first call builds the schema");
    assert_eq!(
        allocations_during(|| {
            let _ = Plain::requested_schema();
        }),
        0
    );

    let _ = Wrapper::<u8>::requested_schema();
    assert_eq!(
        allocations_during(|| {
            let _ = Wrapper::<u8>::requested_schema();
        }),
        0
    );

    for version in ProtocolVersion::ALL {
        let _ = Plain::requested_schema_for(version).unwrap();
        assert_eq!(
            allocations_during(|| {
                let _ = Plain::requested_schema_for(version);
            }),
            0,
            "{version}"
        );
    }
}
