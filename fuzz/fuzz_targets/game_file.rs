//! Game files (docs/game-file.md): arbitrary text read by `parse_games`. It must not panic;
//! a refusal names a line and column inside the text. Every game read is written back
//! and must parse to an equal record, whose writing is the same text again
//! (docs/game-file.md#round-trip); its replay must not panic, and a replay that succeeds
//! gives one position per move and the record's own result where the board has none.
#![no_main]

use libfuzzer_sys::fuzz_target;
use omweso_gamefile::{parse_games, write_game};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let games = match parse_games(text) {
        Ok(games) => games,
        Err(e) => {
            let lines = text.split('\n').count();
            assert!(
                e.line >= 1 && e.line <= lines && e.column >= 1,
                "{e} is outside the text of {lines} lines"
            );
            assert!(!e.what.is_empty());
            return;
        }
    };
    for game in &games {
        let written = write_game(game);
        let again = parse_games(&written)
            .unwrap_or_else(|e| panic!("{game:?} was written as {written:?}, which fails: {e}"));
        assert_eq!(again, vec![game.clone()], "{written}");
        assert_eq!(write_game(&again[0]), written);
        if let Ok(replay) = game.replay() {
            assert_eq!(replay.positions.len(), game.moves.len());
            if game.termination.is_none() {
                assert_eq!(replay.outcome, None);
            }
        }
    }
});
