//! Local account passwords: argon2id hashes in PHC format.

use argon2::Argon2;
use argon2::password_hash::{
    PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng,
};

/// Shortest password the CLI accepts for a local account.
pub const MIN_PASSWORD_LENGTH: usize = 10;

pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| anyhow::anyhow!("Passwort-Hash fehlgeschlagen: {e}"))
}

/// True when `password` matches the stored hash; a malformed hash never matches.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A readable random password for generated accounts (no look-alike characters).
pub fn generate_password() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rngs::OsRng;
    (0..16)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_verifies_only_the_right_password() {
        let hash = hash_password("Sommer-Aktion-2026").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("Sommer-Aktion-2026", &hash));
        assert!(!verify_password("sommer-aktion-2026", &hash));
        assert!(!verify_password("x", "kein-hash"));
    }

    #[test]
    fn generated_passwords_are_long_and_differ() {
        let a = generate_password();
        assert_eq!(a.len(), 16);
        assert!(a.len() >= MIN_PASSWORD_LENGTH);
        assert_ne!(a, generate_password());
    }
}
