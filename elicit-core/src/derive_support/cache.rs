//! One schema per type and protocol version, built on first use and kept for the program's life.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use crate::error::SchemaError;
use crate::schema::RequestedSchema;
use crate::version::ProtocolVersion;

type Slot = OnceLock<Result<RequestedSchema, SchemaError>>;

/// The cached schemas of one type, one slot per protocol version.
#[doc(hidden)]
pub struct SchemaCache {
    slots: [Slot; 3],
}

impl Default for SchemaCache {
    fn default() -> Self {
        Self::new()
    }
}

impl SchemaCache {
    /// An empty cache, usable as a `static`.
    #[must_use]
    pub const fn new() -> Self {
        SchemaCache {
            slots: [OnceLock::new(), OnceLock::new(), OnceLock::new()],
        }
    }

    /// The schema for `version`, built by `build` the first time.
    pub fn get(
        &self,
        version: ProtocolVersion,
        build: impl FnOnce() -> Result<RequestedSchema, SchemaError>,
    ) -> Result<&RequestedSchema, &SchemaError> {
        self.slots[version.index()].get_or_init(build).as_ref()
    }

    /// The cache of a generic type `T`. A `static` in generic code is shared by every
    /// instantiation, so generic types keep their caches in a map keyed by type.
    pub fn for_type<T: ?Sized + 'static>() -> &'static SchemaCache {
        static CACHES: OnceLock<RwLock<HashMap<TypeId, &'static SchemaCache>>> = OnceLock::new();
        let caches = CACHES.get_or_init(Default::default);
        let id = TypeId::of::<T>();
        if let Some(cache) = caches.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
            return cache;
        }
        let mut write = caches.write().unwrap_or_else(|e| e.into_inner());
        // One cache per type for the life of the program: leaking it is what makes it `'static`.
        write
            .entry(id)
            .or_insert_with(|| Box::leak(Box::new(SchemaCache::new())))
    }
}
