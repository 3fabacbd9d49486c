//! A position to analyse: read from its string (with its sowing budget and akakyala
//! history), and what the server says of it - who may start a turn and what each start
//! does, as a game's `legal`.

use omweso_rules::{Game, ParseGameError, Ruleset, Side};

use super::Refused;
use crate::game::legal::list_side;
use omweso_protocol::analysis::{CaptureHistory, PositionView};
use omweso_protocol::config::TURN_SEED_CAP;
use omweso_protocol::{ErrorCode, Legal};

/// The sowing budget when none is asked for: a game's under the default move limit
/// (180 s at 4 seeds a second; docs/rules.md#4-play-under-the-referee-server-rules).
pub const DEFAULT_BUDGET: u64 = 720;

/// A position read, with the budget its turns are sown under.
#[derive(Clone, Copy, Debug)]
pub struct Analysed {
    pub game: Game,
    pub budget: u64,
}

/// Reads a position of `ruleset`; refuses a malformed one (`bad_position`), a budget out
/// of 1..=20,000 (`bad_limit`) and an akakyala history outside Omweso (`bad_position`).
pub fn read(
    ruleset: Ruleset,
    text: &str,
    max_seeds: Option<u64>,
    akakyala: Option<CaptureHistory>,
) -> Result<Analysed, Refused> {
    let budget = max_seeds.unwrap_or(DEFAULT_BUDGET);
    if !(1..=TURN_SEED_CAP).contains(&budget) {
        return Err(Refused::new(
            ErrorCode::BadLimit,
            format!("max_seeds must be 1 to {TURN_SEED_CAP}, not {budget}"),
        ));
    }
    let history = akakyala.map(|h| [h.s, h.n]);
    let game = Game::parse_with_akakyala(ruleset, text, history).map_err(|e| match e {
        ParseGameError::Akakyala { .. } => Refused::new(ErrorCode::BadPosition, e.to_string()),
        ParseGameError::Board(_) | ParseGameError::Oware(_) => Refused::new(
            ErrorCode::BadPosition,
            format!("not a position of {ruleset}: {e}"),
        ),
    })?;
    Ok(Analysed { game, budget })
}

/// Who may start a turn in `game` and what each start does, and its result if it is over.
#[must_use]
pub fn view(game: &Game, budget: u64) -> PositionView {
    let outcome = game.outcome();
    let mut legal = Legal::default();
    if outcome.is_none() {
        for side in Side::ALL.into_iter().filter(|&side| game.may_move(side)) {
            legal.set(side, list_side(*game, side, budget));
        }
    }
    PositionView {
        position: game.to_string(),
        to_move: game.to_move(),
        opening: game.opening_owed(),
        legal,
        outcome,
        akakyala: history(game),
    }
}

/// The akakyala history of an Omweso game that plays the rule.
#[must_use]
pub fn history(game: &Game) -> Option<CaptureHistory> {
    match game {
        Game::Omweso(p) if p.rules().akakyala => Some(CaptureHistory {
            s: p.has_captured(Side::South),
            n: p.has_captured(Side::North),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORKED: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";

    #[test]
    fn the_worked_example_offers_exactly_its_six_moves() {
        let read = read(Ruleset::Omweso, WORKED, None, None).unwrap();
        assert_eq!(read.budget, 720);
        let view = view(&read.game, read.budget);
        assert_eq!(view.position, WORKED);
        assert_eq!(view.to_move, Some(Side::South));
        assert!(view.legal.n.is_none());
        let south = view.legal.s.unwrap();
        assert_eq!(south.moves, ["E1", "H2", "E2", "D2", "B2", "A2"]);
        let starts: Vec<_> = south.starts.iter().map(|s| s.start.as_str()).collect();
        assert_eq!(starts, ["E1", "H2", "E2", "D2", "B2", "A2"]);
        let e1 = &south.starts[0];
        assert_eq!((e1.laps, e1.seeds, e1.captured), (2, 10, 6));
        assert_eq!(e1.ends_at.as_deref(), Some("F2"));
    }

    #[test]
    fn both_players_may_open_in_mweiso() {
        let start = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o";
        let read = read(Ruleset::Mweiso, start, None, None).unwrap();
        let view = view(&read.game, read.budget);
        assert_eq!(view.to_move, None);
        assert_eq!(view.opening, [Side::South, Side::North]);
        let south = view.legal.s.unwrap();
        let north = view.legal.n.unwrap();
        assert!(!south
            .moves
            .iter()
            .any(|m| m.starts_with("D1") || m.starts_with("E1")));
        assert!(!north
            .moves
            .iter()
            .any(|m| m.starts_with("D4") || m.starts_with("E4")));
        // docs/rules.md#2-mweiso-kagera-murray-1951: an opening turn never starts clockwise.
        assert_eq!(south.moves, ["A1", "B1", "C1", "F1", "G1", "H1"]);
        assert_eq!(north.moves, ["H4", "G4", "F4", "C4", "B4", "A4"]);
        assert!(!south.starts.iter().any(|s| s.start.ends_with('\'')));
    }

    #[test]
    fn bad_positions_and_budgets_are_refused_saying_why() {
        let bad = read(Ruleset::Omweso, "4,4/4 s", None, None).unwrap_err();
        assert_eq!(bad.code, ErrorCode::BadPosition);
        assert!(
            bad.message.starts_with("not a position of omweso: "),
            "{}",
            bad.message
        );
        let budget = read(Ruleset::Omweso, WORKED, Some(0), None).unwrap_err();
        assert_eq!(budget.code, ErrorCode::BadLimit);
        assert_eq!(budget.message, "max_seeds must be 1 to 20000, not 0");
        let over = read(Ruleset::Omweso, WORKED, Some(20_001), None).unwrap_err();
        assert_eq!(over.code, ErrorCode::BadLimit);
        let akakyala = read(
            Ruleset::Oware,
            "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0",
            None,
            Some(CaptureHistory { s: true, n: false }),
        )
        .unwrap_err();
        assert_eq!(akakyala.code, ErrorCode::BadPosition);
    }

    #[test]
    fn a_finished_position_has_its_outcome_and_nobody_to_move() {
        // North has no pit of two seeds: South, who moved last, has won.
        let over = "1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,4,4,4,4/4,4,4,4,4,4,3,3 n";
        let read = read(Ruleset::Omweso, over, None, None).unwrap();
        let view = view(&read.game, read.budget);
        assert_eq!(
            view.outcome,
            Some(omweso_rules::Outcome::Win {
                winner: Side::South,
                victory: omweso_rules::Victory::NoMove
            })
        );
        assert!(view.legal.is_empty());
    }
}
