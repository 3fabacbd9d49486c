//! The fuzz target's checks (fuzz/fuzz_targets/game_file.rs) on its seeds, so that plain
//! `cargo test` keeps them true without a fuzzing build.

use omweso_gamefile::{parse_games, write_game};

#[test]
fn the_fuzz_seeds_pass_the_fuzz_targets_checks() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds/game_file");
    let mut read = 0;
    for entry in std::fs::read_dir(dir).expect("the seeds") {
        let path = entry.expect("a seed").path();
        let text = std::fs::read_to_string(&path).expect("UTF-8");
        match parse_games(&text) {
            Err(e) => {
                assert!(
                    e.line >= 1 && e.line <= text.split('\n').count(),
                    "{path:?}: {e}"
                );
            }
            Ok(games) => {
                read += games.len();
                for game in &games {
                    let written = write_game(game);
                    assert_eq!(parse_games(&written), Ok(vec![game.clone()]), "{path:?}");
                    let replay = game.replay().unwrap_or_else(|e| panic!("{path:?}: {e}"));
                    assert_eq!(replay.positions.len(), game.moves.len());
                }
            }
        }
    }
    assert_eq!(
        read, 9,
        "the 4 examples, the 4 as one file, and the budget game"
    );
}
