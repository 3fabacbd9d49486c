//! A refused request: what a game, a tournament or the analysis board answers when it
//! will not do what was asked (nothing changed). One type for every domain, turned into
//! the HTTP API's error or a socket's `error` frame at the server's boundary. Here, beside
//! the error codes, so that the pure domains (the game table, the tournament state) and
//! the server share it without either naming the other.

use crate::ErrorCode;

/// A protocol error code and what is wrong, in at most [`MESSAGE_MAX_CHARS`] characters.
/// An error whose text is the message, so that an error that wraps it keeps it as its
/// source.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
// Built only by `Refusal::new`, which caps the message, or `Refusal::listing`: no struct
// literal outside this crate.
#[non_exhaustive]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

/// The longest refusal message, in characters: a message may quote what the client sent,
/// and a client may send 16 KiB of it.
pub const MESSAGE_MAX_CHARS: usize = 160;

impl Refusal {
    /// A refusal with `code`, its message cut to [`MESSAGE_MAX_CHARS`] (an ellipsis marks
    /// the cut).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        let mut message = message.into();
        if let Some((cut, _)) = message.char_indices().nth(MESSAGE_MAX_CHARS) {
            message.truncate(cut);
            message.push('…');
        }
        Refusal { code, message }
    }

    /// A refusal whose message the server composed from a list it must give whole (a
    /// pairing's breaches, which the director's console lists one by one): not cut, since
    /// it quotes nothing a client sent beyond names already held to their own cap, and its
    /// length is bounded by the field it lists (at most `MAX_PLAYERS` players).
    pub fn listing(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_cut_at_the_cap_with_an_ellipsis() {
        let short = Refusal::new(ErrorCode::BadBody, "é".repeat(MESSAGE_MAX_CHARS));
        assert_eq!(short.message, "é".repeat(MESSAGE_MAX_CHARS));
        let long = Refusal::new(ErrorCode::BadBody, "é".repeat(MESSAGE_MAX_CHARS + 1));
        assert_eq!(long.message, format!("{}…", "é".repeat(MESSAGE_MAX_CHARS)));
        assert_eq!(long.code, ErrorCode::BadBody);
        let again = Refusal::new(long.code, long.message.clone());
        assert_eq!(again, long, "cutting is done once");
    }

    #[test]
    fn a_listing_is_given_whole() {
        let breaches = ["rule 1 (no two players meet twice): A and B have already met"; 5];
        let listing = Refusal::listing(ErrorCode::PairingBreach, breaches.join("; "));
        assert_eq!(listing.message.chars().count(), 5 * 60 + 4 * 2);
        assert_eq!(listing.message, breaches.join("; "));
    }
}
