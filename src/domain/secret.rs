//! Secrets handed out in cookies and links (session tokens, double opt-in links): 256 random
//! bits, and the SHA-256 under which they are stored, so a copy of the database opens nothing.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new random token: 32 bytes from the operating system, as 64 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The lower-case SHA-256 hex of a token: the key under which it is stored.
pub fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `text` has the shape of a token from [`new_token`]; anything else is refused
/// before it reaches the database.
pub fn is_token_shaped(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The public tag of an upload's picture in a mail (its preview at `/mail-bilder/{id}/{tag}`):
/// made from the upload's storage key, 128 random bits no answer shows, so only a mail that
/// carries the address opens the picture, and nothing is stored for it.
pub fn picture_tag(storage_key: &str) -> String {
    hash_token(&format!("mail-picture:{storage_key}"))
}

/// Whether two secrets are equal, in a time that does not tell how much of them matched.
pub fn same_secret(given: &str, expected: &str) -> bool {
    given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |differ, (a, b)| differ | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let a = new_token();
        assert_ne!(a, new_token());
        assert!(is_token_shaped(&a));
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), a);
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn only_token_shaped_text_is_looked_up() {
        for bad in [
            "",
            "42",
            "ABC",
            &"g".repeat(64),
            &"a".repeat(63),
            &"A".repeat(64),
        ] {
            assert!(!is_token_shaped(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_picture_tag_is_fixed_per_key_and_compared_whole() {
        let tag = picture_tag("ab/0123.png");
        assert_eq!(tag, picture_tag("ab/0123.png"));
        assert_ne!(tag, picture_tag("ab/0124.png"));
        assert!(is_token_shaped(&tag));
        assert!(same_secret(&tag, &picture_tag("ab/0123.png")));
        assert!(!same_secret(&tag[..63], &tag));
        assert!(!same_secret(&picture_tag("ab/0124.png"), &tag));
    }
}
