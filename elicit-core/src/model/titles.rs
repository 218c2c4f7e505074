//! Titles made from property names, so a form shows "Party size" where the name is
//! `party_size`: clients show the raw name when a property has no `title`.

use super::RequestedSchema;

/// Gives every property without a title one made from its name.
pub(crate) fn title_untitled(schema: &mut RequestedSchema) {
    for p in &mut schema.properties {
        if p.title.is_none() {
            let title = human_title(&p.name);
            if !title.is_empty() {
                p.title = Some(title);
            }
        }
    }
}

/// `party_size`, `partySize`, `party-size` → "Party size"; `user_id` → "User id";
/// `HTTPPort` → "HTTP port"; `address2` → "Address2". Words split at `_`, `-`, spaces and
/// lower-to-upper case changes; the first word is capitalized, the rest lower-cased, except
/// words written all in capitals (acronyms), which are kept.
pub(crate) fn human_title(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let chars: Vec<char> = name.chars().collect();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if matches!(c, '_' | '-' | ' ' | '.') {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1);
        // A new word at `aB`, and at the last capital of a run followed by a lower-case letter
        // (`HTTPPort`: `HTTP`, `Port`).
        let starts = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if starts && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut title = String::new();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            title.push(' ');
        }
        let acronym = word.chars().count() > 1 && word.chars().all(|c| !c.is_lowercase());
        if acronym {
            title.push_str(word);
        } else if i == 0 {
            let mut cs = word.chars();
            if let Some(first) = cs.next() {
                title.extend(first.to_uppercase());
                title.push_str(&cs.as_str().to_lowercase());
            }
        } else {
            title.push_str(&word.to_lowercase());
        }
    }
    title
}

#[cfg(test)]
mod tests {
    use super::human_title;

    #[test]
    fn names_become_sentence_case_titles() {
        for (name, title) in [
            ("party_size", "Party size"),
            ("partySize", "Party size"),
            ("party-size", "Party size"),
            ("PartySize", "Party size"),
            ("name", "Name"),
            ("user_id", "User id"),
            ("HTTPPort", "HTTP port"),
            ("api_URL", "Api URL"),
            ("address2", "Address2"),
            ("check_in_2", "Check in 2"),
            ("__weird__", "Weird"),
            ("été_prévu", "Été prévu"),
            ("x", "X"),
            ("_", ""),
            ("", ""),
        ] {
            assert_eq!(human_title(name), title, "{name}");
        }
    }
}
