//! Session tokens are stored only as their hash.

use sha2::{Digest, Sha256};

/// The SHA-256 of `token`, as 64 lowercase hex digits: what `sessions.token_hash` holds.
/// Tokens are long random strings, so a plain (unsalted) hash suffices: a leaked database
/// does not reveal tokens that can be presented to the server.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}
