//! What a person types into the account pages, read as the server reads it: a name, a
//! username, a link code and a recovery code. Checks:
//!
//! - nothing panics; a refusal says why (a message that names what it refuses);
//! - an accepted name or username is NFC, within its length, and accepted again as it is
//!   (cleaning is idempotent); a username holds only letters, digits, `-`, `_` and `.`;
//! - a username's key is the key of its NFD spelling and of its ASCII case changes (so the
//!   uniqueness check cannot be dodged by them);
//! - a code is read only when it has exactly its length of the alphabet, and then the same
//!   whatever its case, spaces and dashes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use omweso_people::codes::typed_code_hash;
use omweso_people::names::{clean_name, clean_username, username_key, MAX_NAME};
use unicode_normalization::UnicodeNormalization;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match clean_name(Some(text)) {
        Ok(name) => {
            assert!(name.chars().count() <= MAX_NAME);
            assert_eq!(name.nfc().collect::<String>(), name);
            assert_eq!(clean_name(Some(&name)).as_deref(), Ok(name.as_str()));
        }
        Err(why) => assert!(why.starts_with("a name "), "{why}"),
    }
    match clean_username(text) {
        Ok(username) => {
            assert!((2..=24).contains(&username.chars().count()));
            assert!(username
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.')));
            assert_eq!(clean_username(&username).as_deref(), Ok(username.as_str()));
            let key = username_key(&username);
            assert_eq!(username_key(&username.nfd().collect::<String>()), key);
            assert_eq!(username_key(&username.to_ascii_uppercase()), key);
            assert_eq!(username_key(&username.to_ascii_lowercase()), key);
        }
        Err(why) => assert!(why.starts_with("a username "), "{why}"),
    }
    for length in [8, 16] {
        if let Some(hash) = typed_code_hash(text, length) {
            assert_eq!(hash.len(), 64);
            let respelled: String = text
                .chars()
                .filter(|c| *c != ' ' && *c != '-')
                .map(|c| c.to_ascii_lowercase())
                .collect();
            assert_eq!(typed_code_hash(&respelled, length).as_ref(), Some(&hash));
        }
    }
});
