//! A tournament's inputs together: each input line is read as a creation request
//! (`NewTournament` then `Settings::from_request`), as each of the director's and players'
//! request bodies, and as a log `Entry` applied to a tournament, with the clock moving on
//! between lines. Checks:
//!
//! - nothing panics; a refused request or entry says why (a message);
//! - a refused entry changes nothing (the snapshot is the same JSON, the version too);
//!   an accepted one raises the version by exactly its events;
//! - the standings always list every player, ranked from 1;
//! - replaying the accepted entries rebuilds the same tournament (determinism).
#![no_main]

use libfuzzer_sys::fuzz_target;
use omweso_protocol::tournament::{
    EditRound, NewTournament, SheetRequest, System, WithdrawRequest,
};
use omweso_protocol::over_the_board::{
    AddPlayer, BoardResult, BoardSheetRequest, ClaimRelay, RelayRequest, SetPlayedAt,
};
use omweso_rules::Ruleset;
use omweso_tournament::board::board_verdict;
use omweso_tournament::log::Entry;
use omweso_tournament::settings::MIN_ROUND_MINUTES;
use omweso_tournament::settings::Settings;
use omweso_tournament::state::Tournament;

fn tournament(system: System) -> Tournament {
    let settings = Settings::from_request(
        NewTournament {
            name: Some("Fuzz".into()),
            system: Some(system),
            ..NewTournament::default()
        },
        MIN_ROUND_MINUTES,
    )
    .expect("valid settings");
    let create = Entry::Create {
        settings: Box::new(settings),
        director: uuid::Uuid::from_u128(1),
        director_name: "TD".into(),
    };
    Tournament::create(uuid::Uuid::from_u128(9), &create, 0).expect("created")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut entries = Vec::new();
    for line in text.lines() {
        if let Ok(request) = serde_json::from_str::<NewTournament>(line) {
            if let Err(message) = Settings::from_request(request, MIN_ROUND_MINUTES) {
                assert!(!message.is_empty());
            }
        }
        let _ = serde_json::from_str::<EditRound>(line);
        let _ = serde_json::from_str::<SheetRequest>(line);
        let _ = serde_json::from_str::<WithdrawRequest>(line);
        // Over the board: the bodies, and a result checked against a table of two.
        let _ = serde_json::from_str::<SetPlayedAt>(line);
        let _ = serde_json::from_str::<AddPlayer>(line);
        let _ = serde_json::from_str::<ClaimRelay>(line);
        let _ = serde_json::from_str::<RelayRequest>(line);
        if let Ok(BoardSheetRequest::Enter {
            winner,
            victory,
            seeds,
            seeds_on_board,
        }) = serde_json::from_str::<BoardSheetRequest>(line)
        {
            let result = BoardResult {
                winner,
                victory,
                seeds,
                seeds_on_board,
            };
            let table = [uuid::Uuid::from_u128(100), uuid::Uuid::from_u128(101)];
            for ruleset in [Ruleset::Omweso, Ruleset::Mweiso, Ruleset::Oware] {
                if let Err(refusal) = board_verdict(&result, table, ruleset, true, ruleset == Ruleset::Oware) {
                    assert!(!refusal.message.is_empty());
                }
            }
        }
        if let Ok(entry) = serde_json::from_str::<Entry>(line) {
            entries.push((line.len() as u64 * 1000, entry));
        }
    }
    for system in [System::Swiss, System::RoundRobin] {
        let mut t = tournament(system);
        let mut accepted = Vec::new();
        let mut now = 0;
        for (step, entry) in &entries {
            now += step;
            let before = serde_json::to_value(t.snapshot(None)).expect("encodes");
            let version = t.version();
            match t.apply(entry, now) {
                Ok(events) => {
                    assert_eq!(t.version(), version + events.len() as u64);
                    accepted.push((entry.clone(), now));
                }
                Err(refusal) => {
                    assert!(!refusal.message.is_empty());
                    let after = serde_json::to_value(t.snapshot(None)).expect("encodes");
                    assert_eq!(after, before, "refusing {entry:?} changed the tournament");
                    assert_eq!(t.version(), version);
                }
            }
            let standings = t.standings();
            assert_eq!(standings.len(), t.players().len());
            assert!(standings.iter().all(|s| s.rank >= 1));
        }
        let mut replayed = tournament(system);
        for (entry, at) in &accepted {
            assert!(
                replayed.apply(entry, *at).is_ok(),
                "{entry:?} refused on replay"
            );
        }
        assert_eq!(
            serde_json::to_value(replayed.snapshot(None)).expect("encodes"),
            serde_json::to_value(t.snapshot(None)).expect("encodes")
        );
    }
});
