//! The codes people type: a player's own token and a captain's (drawn at
//! random), and the short code printed on a table's card (derived from
//! its token). One alphabet a braille reader types without capitals or
//! look-alike letters, read back however it was typed, printed in groups
//! of four.

use super::secret::Secret;

/// Crockford's base 32, lower case: no `i`, `l`, `o`, `u`, which are read
/// as `1`, `1`, `0` and nothing else.
const CODE_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// The length of a player's own token.
pub const CODE_LEN: usize = 16;

/// A player's code as typed: any case, dashes and spaces anywhere, `i`
/// and `l` for `1`, `o` for `0`; `None` if it cannot be one.
pub fn normalise_code(typed: &str) -> Option<String> {
    let mut out = String::with_capacity(CODE_LEN);
    for c in typed.chars() {
        let c = match c.to_ascii_lowercase() {
            '-' | ' ' => continue,
            'i' | 'l' => '1',
            'o' => '0',
            c if c.is_ascii() && CODE_ALPHABET.contains(&(c as u8)) => c,
            _ => return None,
        };
        if out.len() == CODE_LEN {
            return None;
        }
        out.push(c);
    }
    (out.len() == CODE_LEN).then_some(out)
}

/// A code as printed: four groups of four, `7k3m-q9xa-2bcd-efgh`.
pub fn grouped_code(code: &str) -> String {
    code.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

/// The short code printed on a table's card for a lasting `token`: 16
/// symbols of `CODE_ALPHABET` (80 bits) derived from the token with
/// HMAC-SHA-256, so that nothing more is kept and an old tokens file gets
/// codes too. Printed in groups of four after `/t/`, it is read in any
/// case, with or without dashes, as a braille reader types it from a BRF
/// card (which has no capitals); `/t/` leads to the page with the token.
pub fn card_code(token: &Secret) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, token.expose().as_bytes());
    let tag = ring::hmac::sign(&key, b"tactus/card-code");
    code_of(&tag.as_ref()[..CODE_LEN])
}

/// `bytes` as symbols of [`CODE_ALPHABET`], five bits of each.
pub(super) fn code_of(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| char::from(CODE_ALPHABET[usize::from(b & 31)]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_however_it_is_typed_and_nothing_else() {
        let code = code_of(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 31, 30, 29, 28]);
        assert_eq!(code, "0123456789abzyxw");
        assert_eq!(grouped_code(&code), "0123-4567-89ab-zyxw");
        for typed in [
            code.clone(),
            grouped_code(&code).to_uppercase(),
            "O123 4567 89AB ZYXW".into(),
            "o-l-2-3-4-5-6-7-8-9-a-b-z-y-x-w".into(),
        ] {
            assert_eq!(
                normalise_code(&typed).as_deref(),
                Some(code.as_str()),
                "{typed}"
            );
        }
        // Too short, too long, or a letter the alphabet leaves out.
        assert_eq!(normalise_code(&code[1..]), None);
        assert_eq!(normalise_code(&format!("{code}0")), None);
        assert_eq!(normalise_code("0123456789abzyxu"), None);
        assert_eq!(normalise_code("0123456789abzyxé"), None);
    }

    #[test]
    fn a_card_code_is_the_token_s_own_and_in_the_alphabet() {
        let a = card_code(&Secret::new("a lasting token of table 1".into()));
        let b = card_code(&Secret::new("a lasting token of table 2".into()));
        assert_eq!(a.len(), CODE_LEN);
        assert_ne!(a, b);
        assert_eq!(normalise_code(&a).as_deref(), Some(a.as_str()));
        assert_eq!(
            a,
            card_code(&Secret::new("a lasting token of table 1".into()))
        );
    }
}
