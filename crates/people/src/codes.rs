//! One-time codes: the short code that links another device to a person (shown with a QR
//! code), and an account's recovery codes. Both are random, shown once, stored only as
//! their SHA-256, and read back forgivingly (Crockford's base32: no I, L, O or U, case and
//! dashes ignored, so a code read aloud or typed on a phone still works).

use rand::Rng;

use crate::token::hash_token;

/// Crockford's base32 alphabet: digits and capitals without I, L, O and U.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// A link code's characters (40 bits): shown as `XXXX-XXXX`. Short enough to read out
/// across a hall; guessing is held off by its ten minutes, its one use and the limits on
/// tries (docs/security.md#accounts).
pub const LINK_CODE_CHARACTERS: usize = 8;
/// How long a link code works: 10 minutes.
pub const LINK_CODE_LIFE_MS: i64 = 10 * 60 * 1000;
/// A recovery code's characters (80 bits: it must hold against a stolen database's
/// unsalted hashes): shown as `xxxx-xxxx-xxxx-xxxx`.
pub const RECOVERY_CODE_CHARACTERS: usize = 16;
/// Recovery codes given at once.
pub const RECOVERY_CODES: usize = 10;
/// An e-mail code's characters (80 bits, as a recovery code's: it too must hold against a
/// stolen database's unsalted hashes), sent in a link, never typed.
pub const EMAIL_CODE_CHARACTERS: usize = 16;
/// How long the link that verifies an address works: a day, for mail read tomorrow.
pub const VERIFY_CODE_LIFE_MS: i64 = 24 * 60 * 60 * 1000;
/// How long a password-reset link works: 30 minutes.
pub const RESET_CODE_LIFE_MS: i64 = 30 * 60 * 1000;

/// A new code of `length` characters, with its hash.
fn new_code(length: usize) -> (String, String) {
    let mut rng = rand::rng();
    let code: String = (0..length)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect();
    let hash = hash_token(&code);
    (code, hash)
}

/// `code` in groups of four, joined by `-`.
fn grouped(code: &str) -> String {
    code.as_bytes()
        .chunks(4)
        .map(|chunk| String::from_utf8_lossy(chunk).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

/// A new link code as shown (`ABCD-EF23`) and its hash.
#[must_use]
pub fn new_link_code() -> (String, String) {
    let (code, hash) = new_code(LINK_CODE_CHARACTERS);
    (grouped(&code), hash)
}

/// New recovery codes as shown (lower case, `abcd-ef23-...`) with their hashes.
#[must_use]
pub fn new_recovery_codes() -> Vec<(String, String)> {
    (0..RECOVERY_CODES)
        .map(|_| {
            let (code, hash) = new_code(RECOVERY_CODE_CHARACTERS);
            (grouped(&code).to_lowercase(), hash)
        })
        .collect()
}

/// A new e-mail code as it goes in a link (16 characters, no dashes) and its hash.
#[must_use]
pub fn new_email_code() -> (String, String) {
    new_code(EMAIL_CODE_CHARACTERS)
}

/// The hash of a code as typed, if it can be one of `length` characters: case, spaces and
/// dashes ignored, `O` read as `0`, `I` and `L` as `1`.
#[must_use]
pub fn typed_code_hash(typed: &str, length: usize) -> Option<String> {
    typed_code(typed, length).map(|code| hash_token(&code))
}

/// A code as typed, as the server wrote it (capitals, no dashes), if it can be one of
/// `length` characters; read as [`typed_code_hash`] reads it.
#[must_use]
pub fn typed_code(typed: &str, length: usize) -> Option<String> {
    let mut code = String::with_capacity(length);
    for c in typed.chars() {
        let c = match c.to_ascii_uppercase() {
            ' ' | '-' => continue,
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        if !c.is_ascii() || !ALPHABET.contains(&(c as u8)) || code.len() == length {
            return None;
        }
        code.push(c);
    }
    (code.len() == length).then_some(code)
}

/// The QR code of `text` as an SVG document, black on white, with a quiet zone, at least
/// 240 pixels: what the page shows for another device's camera.
#[must_use]
pub fn qr_svg(text: &str) -> String {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(240, 240)
            .quiet_zone(true)
            .build(),
        // Only text longer than a QR code holds (thousands of characters): never a URL
        // the server makes.
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_codes_are_eight_characters_in_two_groups_and_read_back_forgivingly() {
        let (shown, hash) = new_link_code();
        assert_eq!(shown.len(), 9);
        assert_eq!(&shown[4..5], "-");
        assert_eq!(typed_code_hash(&shown, 8), Some(hash.clone()));
        assert_eq!(
            typed_code_hash(&format!(" {} ", shown.to_lowercase().replace('-', " ")), 8),
            Some(hash)
        );
        // O for 0, I and L for 1.
        assert_eq!(
            typed_code_hash("0011-ABCD", 8),
            typed_code_hash("oOiL-abcd", 8)
        );
        assert_eq!(
            typed_code_hash("0011-ABCD", 8),
            Some(hash_token("0011ABCD"))
        );
        // U is not in the alphabet; too short; too long; not ASCII.
        assert_eq!(typed_code_hash("UUUU-UUUU", 8), None);
        assert_eq!(typed_code_hash("ABCD-EFG", 8), None);
        assert_eq!(typed_code_hash("ABCD-EFGH-J", 8), None);
        assert_eq!(typed_code_hash("ABCD-EFG\u{e9}", 8), None);
    }

    #[test]
    fn recovery_codes_are_ten_distinct_codes_of_sixteen_characters() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), 10);
        for (shown, hash) in &codes {
            assert_eq!(shown.len(), 19, "{shown}");
            assert_eq!(typed_code_hash(shown, 16).as_ref(), Some(hash));
        }
        let distinct: std::collections::HashSet<_> = codes.iter().map(|c| &c.1).collect();
        assert_eq!(distinct.len(), 10);
    }

    #[test]
    fn email_codes_are_sixteen_characters_that_read_back() {
        let (code, hash) = new_email_code();
        assert_eq!(code.len(), 16);
        assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
        assert_eq!(typed_code_hash(&code, EMAIL_CODE_CHARACTERS), Some(hash));
    }

    #[test]
    fn the_qr_code_is_an_svg_document() {
        let svg = qr_svg("https://omweso.example/link?code=ABCDEF23");
        assert!(svg.starts_with("<?xml"), "{}", &svg[..40]);
        assert!(svg.contains("<svg") && svg.ends_with("</svg>"));
    }
}
