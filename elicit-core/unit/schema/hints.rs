//! Unit tests of `schema::hints`, beside the crate's sources so that they reach its private items.

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
        // One capital is the start of a camelCase word, not an acronym.
        ("pointX", "Point x"),
        ("_", ""),
        ("", ""),
    ] {
        assert_eq!(human_title(name), title, "{name}");
    }
}
