//! Names that ask for secrets. Since 2025-11-25, servers MUST NOT ask for passwords, API keys,
//! tokens or payment credentials in form mode. This file is the same in elicit-core and
//! elicit-derive (a test holds the two equal): the derive refuses a field so named, the runtime
//! lints a property so named.

/// Found anywhere in a name, compared with case and separators removed: `api_key`, `apiKey`
/// and `X-API-KEY` all hold `apikey`.
const INSIDE: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "credential",
    "cardnumber",
    "cvv",
    "routingnumber",
];

/// Too short to look for inside other words, so found as whole words of a name: `pin`,
/// `user_pin` and `pinCode`, not `spinner` or `shipping`.
const WHOLE: &[&str] = &["pin", "cvc", "otp", "iban", "ssn"];

/// The word that marks `name` as asking for a secret, if one does.
pub(crate) fn secret_word(name: &str) -> Option<&'static str> {
    let flat: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if let Some(word) = INSIDE.iter().find(|word| flat.contains(**word)) {
        return Some(word);
    }
    words(name).find_map(|word| WHOLE.iter().find(|w| **w == word).copied())
}

/// The words of a name in any case style: split at separators, at a lower-case letter or digit
/// followed by a capital (`pinCode`), and before the last capital of a run followed by a
/// lower-case letter (`IBANNumber`). Lower-cased.
fn words(name: &str) -> impl Iterator<Item = String> + '_ {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(|part| {
            let chars: Vec<char> = part.chars().collect();
            let mut out = Vec::new();
            let mut start = 0;
            for i in 1..chars.len() {
                let (prev, cur) = (chars[i - 1], chars[i]);
                let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
                let camel = (prev.is_ascii_lowercase() || prev.is_ascii_digit())
                    && cur.is_ascii_uppercase();
                let acronym_end =
                    prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next_lower;
                if camel || acronym_end {
                    out.push(chars[start..i].iter().collect::<String>());
                    start = i;
                }
            }
            out.push(chars[start..].iter().collect::<String>());
            out
        })
        .filter(|word| !word.is_empty())
        .map(|word| word.to_ascii_lowercase())
}
