//! What one property accepts: the rules its value must keep, each broken rule handed to a
//! [`Found`] as it is found. The reply's reader calls these for every value it reads; a
//! schema's own defaults are checked by them too.

use std::cmp::Ordering;

use serde_json::Value;

use super::{Kind, NumberRules, Pattern, Property, RequestedSchema};
use crate::bound::{Bound, Num};
use crate::error::Rule;

/// Where broken rules go, and the limits a reply's values share.
pub(crate) trait Found {
    /// The value broke `rule`; `received` shows it.
    fn broke(&self, rule: Rule, received: String);
    /// Takes `work` from the pattern work left for the reply: `false` when there is not enough,
    /// so the search must not run.
    fn spend_pattern_work(&self, work: u64) -> bool;
    /// The longest string a value may be, in bytes.
    fn max_string_bytes(&self) -> usize;
}

/// A string as a violation shows it: quoted as JSON, cut to its first 80 characters.
pub(crate) fn quoted(s: &str) -> String {
    let head: String = s.chars().take(80).collect();
    serde_json::to_string(&head).unwrap_or_default()
}

/// Whether `""` for property `i` reads as if the property were not sent: the property is
/// optional, and `""` cannot meet its rules (a format, a least length, a pattern or the choices
/// of a single-select). Many form UIs send an untouched text box as `""`; the person gave no
/// answer, not a wrong one.
pub(crate) fn blank_is_absent(schema: &RequestedSchema, i: usize) -> bool {
    /// Notes whether any rule broke.
    struct Breaks(std::cell::Cell<bool>);

    impl Found for Breaks {
        fn broke(&self, _: Rule, _: String) {
            self.0.set(true);
        }
        fn spend_pattern_work(&self, _: u64) -> bool {
            true
        }
        fn max_string_bytes(&self) -> usize {
            usize::MAX
        }
    }

    let prop = &schema.properties[i];
    if prop.required || !matches!(prop.kind, Kind::String(_) | Kind::Select(_)) {
        return false;
    }
    let breaks = Breaks(std::cell::Cell::new(false));
    check_str(schema, i, "", &breaks);
    breaks.0.get()
}

/// A string as the value of property `i`.
pub(crate) fn check_str(schema: &RequestedSchema, i: usize, s: &str, found: &dyn Found) {
    let prop = &schema.properties[i];
    if too_long(s, found) {
        return;
    }
    match &prop.kind {
        Kind::String(rules) => {
            // A string holds between a quarter of its bytes, rounded up, and all of them in
            // characters: they are counted only where those bounds leave a rule in doubt.
            let bytes = s.len() as u64;
            let settled = rules.min_length.is_none_or(|min| bytes.div_ceil(4) >= min)
                && rules.max_length.is_none_or(|max| bytes <= max);
            if !settled {
                let chars = s.chars().count() as u64;
                if let Some(min) = rules.min_length
                    && chars < min
                {
                    found.broke(Rule::MinLength(min), quoted(s));
                }
                if let Some(max) = rules.max_length
                    && chars > max
                {
                    found.broke(Rule::MaxLength(max), quoted(s));
                }
            }
            if let Some(f) = rules.format
                && !f.is_valid(s)
            {
                found.broke(Rule::Format(f), quoted(s));
            }
            if let Some(p) = &rules.pattern {
                check_pattern(p, s, found);
            }
        }
        Kind::Select(_) => {
            if schema.choice_position(i, s).is_none() {
                found.broke(Rule::NotAChoice, quoted(s));
            }
        }
        _ => wrong_type(prop, quoted(s), found),
    }
}

/// The choices of a multi-select's items so far, to find a repeat: the first 64 choices a bit
/// each, the others in a set. It allocates only for the items of choices past the 64th, never
/// for the choices themselves.
#[derive(Default)]
pub(crate) struct Chosen {
    first: u64,
    more: Option<std::collections::HashSet<usize>>,
}

impl Chosen {
    /// Adds `choice`: whether it is new.
    fn insert(&mut self, choice: usize) -> bool {
        if choice >= 64 {
            return self.more.get_or_insert_default().insert(choice);
        }
        let bit = 1 << choice;
        let new = self.first & bit == 0;
        self.first |= bit;
        new
    }
}

/// A string as an item of multi-select `i`; `seen` holds the choices of the items before it.
pub(crate) fn check_item(
    schema: &RequestedSchema,
    i: usize,
    s: &str,
    seen: &mut Chosen,
    found: &dyn Found,
) {
    if too_long(s, found) {
        return;
    }
    let Kind::MultiSelect(_) = &schema.properties[i].kind else {
        return;
    };
    match schema.choice_position(i, s) {
        None => found.broke(Rule::NotAChoice, quoted(s)),
        Some(choice) => {
            if !seen.insert(choice) {
                found.broke(Rule::UniqueItems, quoted(s));
            }
        }
    }
}

/// A number as the value of property `i`.
pub(crate) fn check_num(schema: &RequestedSchema, i: usize, n: Num, found: &dyn Found) {
    let prop = &schema.properties[i];
    let Kind::Number(rules) = &prop.kind else {
        return wrong_type(prop, n.to_string(), found);
    };
    if rules.integer && !n.is_integer() {
        return wrong_type(prop, n.to_string(), found);
    }
    if within_bounds(n, rules) {
        return;
    }
    let check = |bound: Option<Bound>, broken: fn(Ordering) -> bool, rule: fn(Bound) -> Rule| {
        if let Some(bound) = bound
            && broken(n.cmp_bound(bound))
        {
            found.broke(rule(bound), n.to_string());
        }
    };
    check(rules.minimum, Ordering::is_lt, Rule::Minimum);
    check(rules.maximum, Ordering::is_gt, Rule::Maximum);
    check(
        rules.exclusive_minimum,
        Ordering::is_le,
        Rule::ExclusiveMinimum,
    );
    check(
        rules.exclusive_maximum,
        Ordering::is_ge,
        Rule::ExclusiveMaximum,
    );
}

/// Whether `n` meets every bound of `rules` by one machine comparison each
/// ([`Num::quick_cmp`]): the common case, answered without the exact comparisons. `false` says
/// only that those must run.
fn within_bounds(n: Num, rules: &NumberRules) -> bool {
    let meets = |bound: Option<Bound>, ok: fn(Ordering) -> bool| {
        bound.is_none_or(|b| n.quick_cmp(b).is_some_and(ok))
    };
    meets(rules.minimum, Ordering::is_ge)
        && meets(rules.maximum, Ordering::is_le)
        && meets(rules.exclusive_minimum, Ordering::is_gt)
        && meets(rules.exclusive_maximum, Ordering::is_lt)
}

/// A boolean as the value of property `i`.
pub(crate) fn check_bool(schema: &RequestedSchema, i: usize, v: bool, found: &dyn Found) {
    let prop = &schema.properties[i];
    if !matches!(prop.kind, Kind::Boolean(_)) {
        wrong_type(prop, v.to_string(), found);
    }
}

/// A value of no type property `i` can hold (`null`, an object), or an array where `i` is
/// not a multi-select.
pub(crate) fn check_other(schema: &RequestedSchema, i: usize, received: &str, found: &dyn Found) {
    wrong_type(&schema.properties[i], received.to_owned(), found);
}

/// How many items multi-select `i` was sent.
pub(crate) fn check_count(schema: &RequestedSchema, i: usize, count: usize, found: &dyn Found) {
    let Kind::MultiSelect(rules) = &schema.properties[i].kind else {
        return;
    };
    let n = count as u64;
    if let Some(min) = rules.min_items
        && n < min
    {
        found.broke(Rule::MinItems(min), format!("{n} items"));
    }
    if let Some(max) = rules.max_items
        && n > max
    {
        found.broke(Rule::MaxItems(max), format!("{n} items"));
    }
}

/// The first rule `value` breaks as the value of property `i` alone: its own rules, not
/// `required` nor any other property's.
pub(crate) fn value_breaks(schema: &RequestedSchema, i: usize, value: &Value) -> Option<Rule> {
    let first = First::default();
    match value {
        Value::String(s) => check_str(schema, i, s, &first),
        Value::Bool(b) => check_bool(schema, i, *b, &first),
        Value::Number(n) => check_num(schema, i, Num::of(n), &first),
        Value::Array(items) if matches!(schema.properties[i].kind, Kind::MultiSelect(_)) => {
            let mut seen = Chosen::default();
            for item in items {
                match item {
                    Value::String(s) => check_item(schema, i, s, &mut seen, &first),
                    _ => first.broke(Rule::Type { expected: "string" }, item.to_string()),
                }
            }
            check_count(schema, i, items.len(), &first);
        }
        Value::Array(_) => check_other(schema, i, "an array", &first),
        Value::Object(_) => check_other(schema, i, "an object", &first),
        Value::Null => check_other(schema, i, "null", &first),
    }
    first.0.into_inner()
}

/// Property `i`'s `default`, when it has one that passes its own rules: the value a client
/// fills in, and a server fills into accepted content.
pub(crate) fn usable_default(schema: &RequestedSchema, i: usize) -> Option<Value> {
    let default = schema.properties.get(i)?.kind.default_value()?;
    value_breaks(schema, i, &default)
        .is_none()
        .then_some(default)
}

/// Records a string over the reply's limit; such a string is checked no further.
fn too_long(s: &str, found: &dyn Found) -> bool {
    let limit = found.max_string_bytes();
    let over = s.len() > limit;
    if over {
        found.broke(Rule::TooLong(limit), quoted(s));
    }
    over
}

/// Searches `s` for `pattern`, if the reply's pattern work allows it.
fn check_pattern(pattern: &Pattern, s: &str, found: &dyn Found) {
    let work = (s.len() as u64 + 1).saturating_mul(pattern.size() as u64);
    if !found.spend_pattern_work(work) {
        found.broke(Rule::PatternBudget, quoted(s));
    } else if !pattern.is_match(s) {
        found.broke(Rule::Pattern(pattern.shared()), quoted(s));
    }
}

fn wrong_type(prop: &Property, received: String, found: &dyn Found) {
    let expected = prop.kind.json_type();
    found.broke(Rule::Type { expected }, received);
}

/// Keeps the first rule broken, under the default limits.
#[derive(Default)]
struct First(std::cell::RefCell<Option<Rule>>, std::cell::Cell<u64>);

impl Found for First {
    fn broke(&self, rule: Rule, _: String) {
        self.0.borrow_mut().get_or_insert(rule);
    }

    fn spend_pattern_work(&self, work: u64) -> bool {
        let spent = self.1.get().saturating_add(work);
        self.1.set(spent);
        spent <= crate::limits::Limits::DEFAULT.max_pattern_work()
    }

    fn max_string_bytes(&self) -> usize {
        crate::limits::Limits::DEFAULT.max_string_bytes()
    }
}

#[cfg(test)]
#[path = "../../unit/schema/rules.rs"]
mod tests;
