//! What a reader builds from hostile input is bounded (issue 41, finding 1): a file of
//! ~29,000 made-up tags cost a reader over a second, its duplicate check walking every
//! tag read so far for each new one.

use omweso_gamefile::{parse_games, MAX_TAGS};

/// `count` tags named `Taaa`, `Taab`, ... with empty values, one a line.
fn made_up_tags(count: usize) -> String {
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    (0..count)
        .map(|i| {
            let name: String = [i / 676 % 26, i / 26 % 26, i % 26]
                .iter()
                .map(|&k| char::from(letters[k]))
                .collect();
            format!("[T{name} \"\"]\n")
        })
        .collect()
}

#[test]
fn a_game_of_thousands_of_tags_is_refused_at_the_first_past_the_bound() {
    let text = made_up_tags(29_000) + "\n*\n";
    let error = parse_games(&text).unwrap_err();
    assert_eq!(MAX_TAGS, 256);
    // Refused where the 257th tag begins: line 257, column 1.
    assert_eq!(
        (error.line, error.column, error.what.as_str()),
        (257, 1, "a game has at most 256 tag pairs")
    );
}

#[test]
fn a_game_of_as_many_tags_as_allowed_is_read_and_a_repeat_among_them_found() {
    let text = format!(
        "[Ruleset \"oware\"]\n[Result \"*\"]\n{}\n*\n",
        made_up_tags(MAX_TAGS - 2)
    );
    let games = parse_games(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tags.len(), MAX_TAGS - 2);
    assert_eq!(games[0].tags[253].name, "Tajt");

    // The 200th made-up tag (index 199, line 202) written again as the last (line 256).
    let repeated = format!(
        "[Ruleset \"oware\"]\n[Result \"*\"]\n{}[Tahr \"x\"]\n\n*\n",
        made_up_tags(MAX_TAGS - 3)
    );
    let error = parse_games(&repeated).unwrap_err();
    assert_eq!(
        (error.line, error.what.as_str()),
        (256, "a second Tahr tag (the first is on line 202)")
    );
}
