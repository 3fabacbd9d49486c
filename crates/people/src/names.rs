//! Names others read: a player's (a person's), a tournament's, and an account's username
//! (docs/security.md#names). One name cannot pass for another: NFC, no invisible or
//! direction-changing characters; usernames are unique by their key, which folds case
//! and confusable letters (UTS #39 skeleton).

use rand::RngCore;
use unicode_normalization::UnicodeNormalization;

/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;
/// The shortest and longest username, in characters.
pub const USERNAME_CHARACTERS: std::ops::RangeInclusive<usize> = 2..=24;

/// A player name: trimmed and normalised to NFC, 1 to 32 characters, with nothing in it
/// that would let one name pass for another (docs/security.md, names); a guest name when
/// none is given. Every refusal says which character and why, and mentions the name (the
/// API tells a name error by that word).
pub fn clean_name(name: Option<&str>) -> Result<String, String> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        let mut tag = [0u8; 2];
        rand::rng().fill_bytes(&mut tag);
        return Ok(format!("Guest-{}", hex::encode(tag)));
    };
    clean_text(name, MAX_NAME, "a name")
}

/// A name others will read (a player's, a tournament's): `text` trimmed by the caller,
/// normalised to NFC, at most `max` characters, with nothing in it that would let one name
/// pass for another. `noun` ("a name", "a tournament name") starts every refusal.
pub fn clean_text(text: &str, max: usize, noun: &str) -> Result<String, String> {
    // NFC first: "e" + a combining acute and the precomposed "é" are one name, not two
    // that look alike.
    let text: String = text.nfc().collect();
    if text.chars().count() > max {
        return Err(format!("{noun} is at most {max} characters"));
    }
    for c in text.chars() {
        if let Some(why) = refused_in_names(c) {
            return Err(format!("{noun} cannot hold U+{:04X} ({why})", u32::from(c)));
        }
    }
    if text.contains("  ") {
        return Err(format!("{noun} cannot hold two spaces in a row"));
    }
    if !text.chars().any(is_visible) {
        return Err(format!("{noun} needs a letter, a digit or a symbol"));
    }
    Ok(text)
}

/// Why `c` cannot be in a name, if it cannot.
fn refused_in_names(c: char) -> Option<&'static str> {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    match c.general_category() {
        G::Control => return Some("a control character"),
        // Bidi controls (U+202E turns "Alice" around), zero-width characters, U+FEFF...
        G::Format => return Some("an invisible or direction-changing character"),
        G::LineSeparator | G::ParagraphSeparator => return Some("a line break"),
        G::PrivateUse | G::Surrogate | G::Unassigned => {
            return Some("a character with no agreed meaning")
        }
        _ => {}
    }
    if c.is_whitespace() && c != ' ' {
        return Some("a space other than the plain space");
    }
    // Characters that draw nothing yet are not format characters: Hangul and braille
    // fillers, variation selectors (but U+FE0F, which emoji use), and their like.
    let invisible = matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FFA0}'
            | '\u{FE00}'..='\u{FE0E}'
            | '\u{E0100}'..='\u{E01EF}'
    );
    invisible.then_some("an invisible character")
}

/// A letter, digit, punctuation mark or symbol: something a reader sees.
fn is_visible(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup as Group, UnicodeGeneralCategory};
    matches!(
        c.general_category_group(),
        Group::Letter | Group::Number | Group::Punctuation | Group::Symbol
    )
}

/// A username as asked for: the name rules, 2 to 24 characters, and only letters and digits
/// (of any script) with `-`, `_` and `.` between them, so that it can stand in an address
/// (`/@/<username>`) and be typed on a phone. The refusal says why, and mentions the
/// username (the API tells a username error by that word).
pub fn clean_username(username: &str) -> Result<String, String> {
    let username = clean_text(username.trim(), *USERNAME_CHARACTERS.end(), "a username")?;
    if username.chars().count() < *USERNAME_CHARACTERS.start() {
        return Err("a username is at least 2 characters".to_owned());
    }
    if let Some(c) = username
        .chars()
        .find(|c| !c.is_alphanumeric() && !matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "a username holds letters, digits, '-', '_' and '.', not {c:?}"
        ));
    }
    if !username.starts_with(char::is_alphanumeric) || !username.ends_with(char::is_alphanumeric) {
        return Err("a username starts and ends with a letter or a digit".to_owned());
    }
    Ok(username)
}

/// What makes two usernames the same: case folded, then the confusable skeleton of UTS #39
/// (the Cyrillic "а" and the Latin "a", "l" and "1"...), folded again. Two accounts whose
/// keys are equal cannot both exist.
#[must_use]
pub fn username_key(username: &str) -> String {
    let folded: String = username.nfc().collect::<String>().to_lowercase();
    let skeleton: String = unicode_security::confusable_detection::skeleton(&folded).collect();
    skeleton.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(name: &str) -> String {
        clean_name(Some(name)).expect_err(name)
    }

    #[test]
    fn invisible_and_direction_changing_characters_are_refused() {
        assert_eq!(
            refused("\u{202e}ecilA"),
            "a name cannot hold U+202E (an invisible or direction-changing character)"
        );
        assert_eq!(
            refused("Alice\u{200b}"),
            "a name cannot hold U+200B (an invisible or direction-changing character)"
        );
        // Trimming keeps U+FEFF (it is not white space): refused, not emptied to a guest.
        assert_eq!(
            refused("\u{feff}"),
            "a name cannot hold U+FEFF (an invisible or direction-changing character)"
        );
        assert_eq!(
            refused("Ali\u{00a0}ce"),
            "a name cannot hold U+00A0 (a space other than the plain space)"
        );
        assert_eq!(
            refused("A\u{3164}"),
            "a name cannot hold U+3164 (an invisible character)"
        );
        assert_eq!(refused("Al  ice"), "a name cannot hold two spaces in a row");
        assert_eq!(
            refused("Kato\u{7}"),
            "a name cannot hold U+0007 (a control character)"
        );
        assert_eq!(
            refused("\u{e000}x"),
            "a name cannot hold U+E000 (a character with no agreed meaning)"
        );
        assert_eq!(
            refused("\u{0301}\u{0301}"),
            "a name needs a letter, a digit or a symbol"
        );
    }

    #[test]
    fn names_are_trimmed_normalised_and_may_be_in_any_script() {
        assert_eq!(clean_name(Some("  Kato  ")).unwrap(), "Kato");
        // "e" and a combining acute become the one character "é".
        let nfc = clean_name(Some("Nakate\u{0301}")).unwrap();
        assert_eq!(nfc, "Nakat\u{00e9}");
        assert_eq!(nfc.chars().count(), 6);
        for fine in [
            "\u{014c}kello \u{1f981}",
            "Nam\u{0304}uli",
            "\u{1f600}\u{fe0f}",
            "Wasswa-2",
            "Ssemakula J.",
        ] {
            assert_eq!(clean_name(Some(fine)).unwrap(), fine, "{fine}");
        }
    }

    #[test]
    fn usernames_follow_the_name_rules_and_stay_in_an_address() {
        assert_eq!(clean_username(" Kato_2 ").unwrap(), "Kato_2");
        assert_eq!(clean_username("Nakat\u{e9}").unwrap(), "Nakat\u{e9}");
        assert_eq!(
            clean_username("Ka to").unwrap_err(),
            "a username holds letters, digits, '-', '_' and '.', not ' '"
        );
        assert_eq!(
            clean_username("ka/to").unwrap_err(),
            "a username holds letters, digits, '-', '_' and '.', not '/'"
        );
        assert_eq!(
            clean_username("Kato\u{200b}").unwrap_err(),
            "a username cannot hold U+200B (an invisible or direction-changing character)"
        );
        assert_eq!(
            clean_username("K").unwrap_err(),
            "a username is at least 2 characters"
        );
        assert_eq!(
            clean_username(&"k".repeat(25)).unwrap_err(),
            "a username is at most 24 characters"
        );
        assert_eq!(
            clean_username("-kato").unwrap_err(),
            "a username starts and ends with a letter or a digit"
        );
    }

    #[test]
    fn usernames_that_look_alike_have_one_key() {
        // Case, a Cyrillic "а" (U+0430) for the Latin "a", and "l" for "1": one key.
        assert_eq!(username_key("Kato"), username_key("kato"));
        assert_eq!(username_key("Kato"), username_key("K\u{430}to"));
        assert_eq!(username_key("paul1"), username_key("pau11"));
        // A precomposed "é" and "e" with a combining acute: one key.
        assert_eq!(username_key("Nakat\u{e9}"), username_key("Nakate\u{301}"));
        assert_ne!(username_key("Kato"), username_key("Katu"));
    }

    #[test]
    fn a_name_is_at_most_32_characters_and_none_makes_a_guest() {
        assert_eq!(clean_name(Some(&"a".repeat(32))).unwrap().len(), 32);
        assert_eq!(refused(&"a".repeat(33)), "a name is at most 32 characters");
        assert!(clean_name(None).unwrap().starts_with("Guest-"));
        assert!(clean_name(Some("   ")).unwrap().starts_with("Guest-"));
    }

    proptest::proptest! {
        /// Case and normal form never make two usernames of one: the key of a username is
        /// the key of its upper and lower case and of its NFD spelling.
        #[test]
        fn a_username_key_ignores_case_and_normal_form(
            name in "[A-Za-z0-9\u{e9}\u{c9}\u{430}]{1,10}([._-][A-Za-z0-9\u{e9}]{1,6})?"
        ) {
            if let Ok(username) = clean_username(&name) {
                let key = username_key(&username);
                proptest::prop_assert_eq!(&username_key(&username.to_uppercase()), &key);
                proptest::prop_assert_eq!(&username_key(&username.to_lowercase()), &key);
                let nfd: String = username.nfd().collect();
                proptest::prop_assert_eq!(&username_key(&nfd), &key);
            }
        }
    }
}
