//! A game's search columns (`migrations/0008_archive.sql`) from what the game knows: its
//! configuration (rated, its tournament) and, once over, its outcome, when it ended and
//! how many moves were played.

use omweso_protocol::config::GameConfig;
use omweso_rules::{Outcome, Side};

use crate::store::{ArchiveColumns, RESULT_ANNULLED, RESULT_DRAW, RESULT_NORTH, RESULT_SOUTH};

/// The columns of a game configured by `config`; `end` is `(outcome, when it ended, whole
/// moves played)` once it is over, `None` while it is not (then only `rated` and
/// `tournament_id` are set).
#[must_use]
pub fn archive_columns(
    config: &GameConfig,
    end: Option<(Outcome, i64, Option<i64>)>,
) -> ArchiveColumns {
    let mut columns = ArchiveColumns {
        rated: config.rated,
        tournament_id: config.tournament,
        ..ArchiveColumns::default()
    };
    if let Some((outcome, finished_at_ms, move_count)) = end {
        let (result, victory) = result_of(outcome);
        columns.result = Some(result.to_owned());
        columns.victory = victory.map(str::to_owned);
        columns.finished_at_ms = Some(finished_at_ms);
        columns.move_count = move_count;
    }
    columns
}

/// The `result` and `victory` columns of an outcome.
#[must_use]
pub fn result_of(outcome: Outcome) -> (&'static str, Option<&'static str>) {
    match outcome {
        Outcome::Win {
            winner: Side::South,
            victory,
        } => (RESULT_SOUTH, Some(victory.name())),
        Outcome::Win {
            winner: Side::North,
            victory,
        } => (RESULT_NORTH, Some(victory.name())),
        Outcome::Draw => (RESULT_DRAW, None),
        Outcome::Annulled { reason } => (RESULT_ANNULLED, Some(reason.name())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use omweso_protocol::config::{SetupKind, TimeControl};
    use omweso_rules::{AnnulReason, Ruleset, Victory};
    use uuid::Uuid;

    fn config(rated: bool, tournament: Option<Uuid>) -> GameConfig {
        GameConfig {
            ruleset: Ruleset::Omweso,
            setup: SetupKind::Outer,
            time_control: TimeControl::CASUAL,
            stop_at_ms: None,
            relayed: false,
            rated,
            tournament,
        }
    }

    #[test]
    fn an_unfinished_game_has_only_its_configuration() {
        let t = Uuid::from_u128(7);
        assert_eq!(
            archive_columns(&config(true, Some(t)), None),
            ArchiveColumns {
                rated: true,
                tournament_id: Some(t),
                ..ArchiveColumns::default()
            }
        );
    }

    #[test]
    fn each_outcome_has_its_result_and_victory() {
        let won = Outcome::Win {
            winner: Side::North,
            victory: Victory::Resigned,
        };
        assert_eq!(
            archive_columns(&config(false, None), Some((won, 1_000, Some(42)))),
            ArchiveColumns {
                rated: false,
                tournament_id: None,
                result: Some("north".into()),
                victory: Some("resigned".into()),
                finished_at_ms: Some(1_000),
                move_count: Some(42),
            }
        );
        let south = Outcome::Win {
            winner: Side::South,
            victory: Victory::NoMove,
        };
        assert_eq!(result_of(south), ("south", Some("no-move")));
        assert_eq!(result_of(Outcome::Draw), ("draw", None));
        let annulled = Outcome::Annulled {
            reason: AnnulReason::NeverEnding,
        };
        assert_eq!(result_of(annulled), ("annulled", Some("never-ending")));
    }
}
