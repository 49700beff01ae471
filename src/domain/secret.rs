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
}
