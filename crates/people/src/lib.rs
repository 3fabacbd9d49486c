//! People's pure parts: what names a person and what proves a device.
//!
//! - [`names`]: the names others read (a player's, a tournament's) and usernames, unique
//!   by a key that folds case and confusable letters (docs/security.md#names);
//! - [`codes`]: one-time codes (a device's link code with its QR code, recovery codes,
//!   e-mail codes), random, shown once, read back forgivingly;
//! - [`token`]: the hash a device's token or a code is stored as.
//!
//! No store and no HTTP: the server's `people` module keeps persons, accounts and devices
//! and serves their routes.

pub mod codes;
pub mod names;
pub mod token;

pub use names::{clean_name, clean_text, MAX_NAME};
pub use token::hash_token;
