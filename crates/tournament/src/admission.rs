//! Limits a tournament keeps on what players and its director ask, checked by its task
//! before an entry is made, never in the state machine: a log written before a limit
//! existed must still replay (docs/security.md).

use unicode_normalization::UnicodeNormalization;
use uuid::Uuid;

use super::log::SheetAction;
use super::settings::MAX_ROUNDS;
use super::sheet::MAX_REASON_CHARS;
use super::state::{Refusal, Tournament};
use omweso_protocol::tournament::System;
use omweso_protocol::ErrorCode;

/// The corrections one sheet may hold: a director who changes their mind a few times is
/// served, a loop that corrects a sheet a thousand times is not (each one is kept, shown
/// and exported with every snapshot).
pub const MAX_CORRECTIONS: usize = 20;

/// The largest field of a round-robin: every player meets every other, so a field of `n`
/// plays `n - 1` rounds (twice as many doubled); capped so that it has no more rounds
/// than a Swiss may.
#[must_use]
pub fn max_round_robin_field(system: System) -> Option<usize> {
    let rounds = MAX_ROUNDS as usize;
    match system {
        System::Swiss => None,
        System::RoundRobin => Some(rounds + 1),
        System::DoubleRoundRobin => Some(rounds / 2 + 1),
    }
}

/// Two names a player could not tell apart on a sheet or a pairing: the same once
/// normalized (NFC) and case-folded, spaces at the ends aside.
fn alike(a: &str, b: &str) -> bool {
    let fold = |s: &str| s.trim().nfc().collect::<String>().to_lowercase();
    fold(a) == fold(b)
}

/// Whether `player`, named `name`, may join: a round-robin's field is capped, and nobody
/// may join under the name of a player already in (two "Kato"s on one standings table
/// cannot be told apart; the second is asked to add to their name).
pub fn may_join(t: &Tournament, player: Uuid, name: &str) -> Result<(), Refusal> {
    if t.player_index(player).is_some() {
        // The state machine answers this one, as it always has.
        return Ok(());
    }
    if let Some(max) = max_round_robin_field(t.settings().system) {
        if t.players().len() >= max {
            return Err(Refusal::new(ErrorCode::TournamentClosed, format!(
                    "the round-robin is full: {max} players meet each other in {} rounds, the most a tournament plays",
                    MAX_ROUNDS
                )));
        }
    }
    if let Some(taken) = t.players().iter().find(|p| alike(&p.name, name)) {
        return Err(Refusal::new(ErrorCode::BadName, format!(
                "a player named {} is already in this tournament: change your name (add an initial or your club) and join again",
                taken.name
            )));
    }
    Ok(())
}

/// A dispute's or a correction's reason under the rules names follow (NFC; no bidi,
/// invisible or line-break characters; no double spaces): it is shown on the director's
/// page, the players' and in `sheets.csv`, where a U+202E would turn the line around.
/// Spaces at its ends are dropped; an empty reason is the state machine's to refuse.
pub fn clean_reason(action: SheetAction) -> Result<SheetAction, Refusal> {
    let clean = |reason: String| clean_reason_text(&reason);
    Ok(match action {
        SheetAction::Confirm => SheetAction::Confirm,
        SheetAction::Dispute { reason } => SheetAction::Dispute {
            reason: clean(reason)?,
        },
        SheetAction::Correct {
            outcome,
            reason,
            seeds,
            adjudicated,
        } => SheetAction::Correct {
            outcome,
            reason: clean(reason)?,
            seeds,
            adjudicated,
        },
    })
}

/// One reason as [`clean_reason`] cleans it (a board table's dispute's too).
pub fn clean_reason_text(reason: &str) -> Result<String, Refusal> {
    let trimmed = reason.trim();
    if trimmed.is_empty() {
        return Ok(reason.to_owned());
    }
    omweso_people::clean_text(trimmed, MAX_REASON_CHARS, "a reason")
        .map_err(|message| Refusal::new(ErrorCode::BadReason, message))
}

/// Whether the sheet of `game_id` may take another correction.
pub fn may_correct(t: &Tournament, game_id: Uuid) -> Result<(), Refusal> {
    let corrections = t
        .rounds()
        .iter()
        .flat_map(|r| &r.tables)
        .flat_map(|table| table.game.iter().chain(&table.replaced))
        .find(|g| g.game_id == game_id)
        .and_then(|g| g.sheet.as_ref())
        .map_or(0, |s| s.corrections.len());
    if corrections >= MAX_CORRECTIONS {
        return Err(Refusal::new(ErrorCode::BadRequest, format!(
                "this sheet has been corrected {corrections} times, the most it keeps; its result stands as last corrected"
            )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_alike_ignore_case_normalization_and_outer_spaces() {
        assert!(alike("Kato", " kato "));
        assert!(alike("Nakat\u{00F3}", "Nakato\u{0301}"));
        assert!(!alike("Kato", "Kato M."));
    }

    #[test]
    fn a_reason_follows_the_name_rules() {
        let refused = clean_reason(SheetAction::Dispute {
            reason: "I won\u{202E}".into(),
        });
        assert_eq!(
            refused.map_err(|r| (r.code, r.message)),
            Err((
                ErrorCode::BadReason,
                "a reason cannot hold U+202E (an invisible or direction-changing character)"
                    .to_owned()
            ))
        );
        let kept = clean_reason(SheetAction::Dispute {
            reason: "  cafe\u{0301} ".into(),
        });
        assert_eq!(
            kept.map_err(|r| r.message),
            Ok(SheetAction::Dispute {
                reason: "caf\u{00E9}".into()
            })
        );
    }

    #[test]
    fn a_round_robin_field_plays_at_most_thirty_rounds() {
        assert_eq!(max_round_robin_field(System::Swiss), None);
        assert_eq!(max_round_robin_field(System::RoundRobin), Some(31));
        assert_eq!(max_round_robin_field(System::DoubleRoundRobin), Some(16));
    }
}
