//! Where the violations of one read are collected.

use std::cell::{Cell, RefCell};

use crate::error::{ElicitError, Location, Rule, Violation};
use crate::limits::Limits;
use crate::schema::RequestedSchema;

/// Where violations found during one read are collected.
pub(crate) struct Sink<'s> {
    pub(crate) schema: &'s RequestedSchema,
    pub(crate) max_string_bytes: usize,
    violations: RefCell<Vec<Violation>>,
    /// How many violations are kept; past it they are only counted.
    max_violations: usize,
    /// Violations found past `max_violations`.
    dropped: Cell<usize>,
    /// The pattern work left for this reply.
    pattern_work: Cell<u64>,
    /// The property whose value is being read, to name it in an error from the target type.
    current: Cell<Option<usize>>,
}

impl<'s> Sink<'s> {
    pub(crate) fn new(schema: &'s RequestedSchema, limits: &Limits) -> Self {
        Sink {
            schema,
            max_string_bytes: limits.max_string_bytes(),
            violations: RefCell::new(Vec::new()),
            max_violations: limits.max_violations(),
            dropped: Cell::new(0),
            pattern_work: Cell::new(limits.max_pattern_work()),
            current: Cell::new(None),
        }
    }

    pub(crate) fn push(&self, location: Location, rule: Rule, received: Option<String>) {
        let mut violations = self.violations.borrow_mut();
        if violations.len() < self.max_violations {
            violations.push(Violation::new(location, rule, received));
        } else {
            self.dropped.set(self.dropped.get() + 1);
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.violations.borrow().is_empty()
    }

    /// Takes `work` from what is left of the reply's pattern work; `false` when there is not
    /// enough, so the search must not run.
    pub(crate) fn spend_pattern_work(&self, work: u64) -> bool {
        let left = self.pattern_work.get();
        self.pattern_work.set(left.saturating_sub(work));
        work <= left
    }

    pub(crate) fn set_current(&self, index: Option<usize>) {
        self.current.set(index);
    }

    /// Where an error the rules did not foresee happened: the property being read, if any.
    pub(crate) fn current_location(&self) -> Location {
        match self.current.get() {
            Some(i) => Location::Property(self.schema.properties()[i].name.clone()),
            None => Location::Envelope,
        }
    }

    /// The violations, in form order: envelope first, then by property as declared, whatever
    /// order the client wrote the keys in; then how many more were found, if any.
    pub(crate) fn take(&self) -> Vec<Violation> {
        let mut violations = std::mem::take(&mut *self.violations.borrow_mut());
        in_form_order(self.schema, &mut violations);
        let dropped = self.dropped.replace(0);
        if dropped > 0 {
            violations.push(Violation::new(Location::Content, Rule::More(dropped), None));
        }
        violations
    }

    pub(crate) fn into_error(self) -> ElicitError {
        ElicitError::new(self.take())
    }
}

/// Sorts violations of the reply or of the content as a whole first (one list never holds
/// both: a broken envelope or content that is not an object stops the read), then by property
/// as declared.
pub(crate) fn in_form_order(schema: &RequestedSchema, violations: &mut Vec<Violation>) {
    let rank = |v: &Violation| match v.property() {
        None => 0,
        Some(name) => schema.position(name).map_or(usize::MAX, |i| i + 1),
    };
    crate::sort::stable(violations, &|a, b| rank(a).cmp(&rank(b)));
}

/// Visitor methods for JSON values a visitor does not read, each handing `$refuse` a
/// description of what arrived and returning the error it makes.
macro_rules! refuse_others {
    ($refuse:ident: $($kind:ident)*) => { $(refuse_others!(@ $refuse $kind);)* };
    (@ $refuse:ident bool) => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Err(self.$refuse(v.to_string()))
        }
    };
    (@ $refuse:ident i64) => {
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Err(self.$refuse(v.to_string()))
        }
    };
    (@ $refuse:ident u64) => {
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Err(self.$refuse(v.to_string()))
        }
    };
    (@ $refuse:ident f64) => {
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Err(self.$refuse(v.to_string()))
        }
    };
    (@ $refuse:ident str) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Err(self.$refuse("a string".into()))
        }
    };
    (@ $refuse:ident unit) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(self.$refuse("null".into()))
        }
    };
    (@ $refuse:ident seq) => {
        fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(self.$refuse("an array".into()))
        }
    };
    (@ $refuse:ident map) => {
        fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(self.$refuse("an object".into()))
        }
    };
}
pub(crate) use refuse_others;
