//! The tournament's records (docs/rules.md#56-records): the standings and every score sheet with its
//! corrections as CSV, and the whole tournament in FIDE's tournament report format (TRF,
//! the 2016 layout pairing programs read), the first move counting as white.
//!
//! TRF gives a result one code (`1`, `=`, `0`, `+`, `-`, `U`, `Z`) and a point system one
//! value per code (the `BBW`..`BBU` lines of the TRF(bx) extension that bbpPairings reads,
//! and checks every player's total against); nothing can say that an emitwe-ebiri win is
//! worth 2 and a plain win 1. So the TRF's points column is its own codes added up under
//! the tournament's values for a win, a draw, a loss, a bye and a forfeit (it always adds
//! up), while the rank column is the tournament's; the tournament's points, victory weights
//! and all, are the standings CSV's (docs/tournaments.md, "Exports").

use std::fmt::Write as _;

use super::settings::points;
use super::sheet::Verdict;
use super::standings::{Milli, PointsTable};
use super::state::{Table, TableGame, Tournament};
use omweso_protocol::over_the_board::PlayedAt;
use omweso_protocol::tournament::{PairingView, PlayerResult, SheetStatus, SheetView};

/// Which file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    StandingsCsv,
    SheetsCsv,
    Trf,
}

/// The file's text.
#[must_use]
pub fn render(t: &Tournament, kind: Kind) -> String {
    match kind {
        Kind::StandingsCsv => standings_csv(t),
        Kind::SheetsCsv => sheets_csv(t),
        Kind::Trf => trf(t),
    }
}

/// A spreadsheet takes a cell that starts with `=`, `+`, `-` or `@` for a formula: such a
/// name is written with a leading apostrophe (OWASP's advice on CSV injection).
fn cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

fn csv_text(rows: Vec<Vec<String>>) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        // Writing to memory cannot fail on I/O; a row the writer refused is left out.
        if let Err(error) = writer.write_record(&row) {
            tracing::error!(%error, "a CSV row could not be written");
        }
    }
    match writer.into_inner() {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) => {
            tracing::error!(%error, "the CSV could not be finished");
            String::new()
        }
    }
}

fn number(points: f64) -> String {
    // Thousandths at most: no float noise ("0.30000000000000004").
    let text = format!("{points:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn standings_csv(t: &Tournament) -> String {
    let mut rows = vec![[
        "rank",
        "player_id",
        "name",
        "points",
        "buchholz",
        "sonneborn_berger",
        "seeds",
        "games",
        "wins",
        "draws",
        "losses",
        "direct",
        "withdrawn",
        "seed",
        "seed_rating",
    ]
    .map(str::to_owned)
    .to_vec()];
    for s in t.standings() {
        let player = t.player_index(s.player_id).map(|i| &t.players()[i]);
        let withdrawn = player.is_some_and(|p| p.withdrawn);
        // A rated tournament's seed and the rating kept with it (empty otherwise).
        let seed = player
            .and_then(|p| p.seed)
            .map_or_else(String::new, |n| n.to_string());
        let seed_rating = player
            .and_then(|p| p.seed_rating)
            .map_or_else(String::new, |r| r.to_string());
        rows.push(vec![
            s.rank.to_string(),
            s.player_id.to_string(),
            cell(&s.name),
            number(s.points),
            number(s.buchholz),
            number(s.sonneborn_berger),
            s.seeds.to_string(),
            s.games.to_string(),
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            number(s.direct),
            withdrawn.to_string(),
            seed,
            seed_rating,
        ]);
    }
    csv_text(rows)
}

fn result_name(result: Option<PlayerResult>) -> String {
    result.map_or(String::new(), |r| r.name().to_owned())
}

/// A free setup's arrangement on the sheet: its 16 counts in the side's own pit order
/// joined by `-`, and ` (late)` when the referee placed it; empty for a preset start.
fn arrangement_cell(arrangement: Option<(&[u8; 16], bool)>) -> String {
    arrangement.map_or(String::new(), |(counts, late)| {
        let counts: Vec<String> = counts.iter().map(u8::to_string).collect();
        let late = if late { " (late)" } else { "" };
        format!("{}{late}", counts.join("-"))
    })
}

fn status_name(status: SheetStatus) -> &'static str {
    match status {
        SheetStatus::Pending => "pending",
        SheetStatus::Confirmed => "confirmed",
        SheetStatus::Disputed => "disputed",
        SheetStatus::Corrected => "corrected",
    }
}

fn sheets_csv(t: &Tournament) -> String {
    let mut rows = vec![[
        "round",
        "table",
        "game_id",
        "first_id",
        "first_name",
        "second_id",
        "second_name",
        "moved_first",
        "status",
        "first_result",
        "second_result",
        "victory",
        "first_points",
        "second_points",
        "first_seeds",
        "second_seeds",
        "turns",
        "duration_ms",
        "filled_first_result",
        "filled_second_result",
        "filled_victory",
        "dispute",
        "corrections",
        "first_arrangement",
        "second_arrangement",
        "played_at",
        "entered",
        "first_rating",
        "second_rating",
        "first_seeds_on_board",
        "second_seeds_on_board",
    ]
    .map(str::to_owned)
    .to_vec()];
    let snapshot = t.snapshot(None);
    let name = |id: Option<uuid::Uuid>| {
        id.and_then(|id| t.player_index(id))
            .map_or(String::new(), |i| cell(&t.players()[i].name))
    };
    let id_text = |id: Option<uuid::Uuid>| id.map_or(String::new(), |id| id.to_string());
    // The rating a rated tournament seeded the player with (empty otherwise).
    let rating = |id: Option<uuid::Uuid>| {
        id.and_then(|id| t.player_index(id))
            .and_then(|i| t.players()[i].seed_rating)
            .map_or(String::new(), |r| r.to_string())
    };
    for (round, view) in t.rounds().iter().zip(&snapshot.rounds) {
        for (table, pairing) in round.tables.iter().zip(&view.pairings) {
            let mut line = |game: Option<&TableGame>, sheet: &SheetView, status: &str| {
                let filled = game
                    .and_then(|g| g.sheet.as_ref())
                    .map(|s| s.filled.results());
                rows.push(vec![
                    round.number.to_string(),
                    table.number.to_string(),
                    id_text(sheet.game_id),
                    pairing.first.to_string(),
                    name(Some(pairing.first)),
                    id_text(pairing.second),
                    name(pairing.second),
                    id_text(sheet.moved_first),
                    status.to_owned(),
                    sheet.first_result.name().to_owned(),
                    result_name(sheet.second_result),
                    sheet.victory.clone().unwrap_or_default(),
                    number(sheet.points.first),
                    number(sheet.points.second),
                    sheet.seeds.first.to_string(),
                    sheet.seeds.second.to_string(),
                    sheet.turns.to_string(),
                    sheet.duration_ms.to_string(),
                    filled.map_or(String::new(), |f| f[0].name().to_owned()),
                    filled.map_or(String::new(), |f| f[1].name().to_owned()),
                    game.and_then(|g| g.sheet.as_ref())
                        .and_then(|s| s.filled.victory())
                        .unwrap_or_default(),
                    sheet.dispute.as_ref().map_or(String::new(), |d| {
                        cell(&format!("{}: {}", name(Some(d.by)), d.reason))
                    }),
                    cell(
                        &sheet
                            .corrections
                            .iter()
                            .map(|c| {
                                format!(
                                    "{} by {} ({}): {}/{} {} -> {}/{} {}",
                                    iso_utc(c.at_ms),
                                    c.by_name,
                                    c.reason,
                                    c.before.first_result.name(),
                                    result_name(c.before.second_result),
                                    c.before.victory.as_deref().unwrap_or("-"),
                                    c.after.first_result.name(),
                                    result_name(c.after.second_result),
                                    c.after.victory.as_deref().unwrap_or("-"),
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                    arrangement_cell(
                        sheet
                            .arrangements
                            .as_ref()
                            .map(|a| (&a.first, a.late.first)),
                    ),
                    arrangement_cell(
                        sheet
                            .arrangements
                            .as_ref()
                            .map(|a| (&a.second, a.late.second)),
                    ),
                    // Where the game was played, and for a sheet entered at the board
                    // who entered and initialled it (docs/rules.md#57-over-the-board-play-and-relays).
                    if sheet.over_the_board {
                        "board".to_owned()
                    } else if sheet.game_id.is_some() {
                        "online".to_owned()
                    } else {
                        String::new()
                    },
                    cell(&entered(t, pairing, game, sheet)),
                    rating(Some(pairing.first)),
                    rating(pairing.second),
                    // A board adjudication of Omweso or Mweiso: the seeds on each side it
                    // was decided on (empty otherwise: not captures).
                    sheet
                        .seeds_on_board
                        .map_or_else(String::new, |s| s.first.to_string()),
                    sheet
                        .seeds_on_board
                        .map_or_else(String::new, |s| s.second.to_string()),
                ]);
            };
            for (game, replaced) in table.replaced.iter().zip(&pairing.replaced) {
                if let Some(sheet) = &replaced.sheet {
                    line(Some(game), sheet, "replayed");
                }
            }
            if let Some(sheet) = &pairing.sheet {
                line(table.game.as_ref(), sheet, status_name(sheet.status));
            }
        }
    }
    csv_text(rows)
}

/// Who entered a board sheet and who initialled it, in words; empty for a game's sheet.
fn entered(
    t: &Tournament,
    pairing: &PairingView,
    game: Option<&TableGame>,
    sheet: &SheetView,
) -> String {
    let Some(made) = game.and_then(|g| g.sheet.as_ref()) else {
        return String::new();
    };
    if !made.over_the_board {
        return String::new();
    }
    if let Some(director) = made.entered_by {
        return format!("entered by the director {}", t.name_of(director));
    }
    let standing = game
        .and_then(|g| g.board.as_ref())
        .and_then(|b| b.entries.first());
    let author = standing.map_or_else(String::new, |e| {
        if e.from_relay {
            format!("proposed by the relay {}", e.by_name)
        } else {
            format!("entered by {}", e.by_name)
        }
    });
    // A player without a device initialled by a director: both named.
    let ids = [Some(pairing.first), pairing.second];
    let initials: Vec<String> = sheet
        .confirmed_by
        .iter()
        .filter(|id| standing.is_none_or(|e| e.from_relay || e.by != **id))
        .map(|id| {
            let hand = standing.and_then(|e| {
                let index = ids.iter().position(|p| *p == Some(*id))?;
                e.initialled_for[index].as_ref()
            });
            match hand {
                Some(director) => {
                    format!("the director {} for {}", director.by_name, t.name_of(*id))
                }
                None => t.name_of(*id),
            }
        })
        .collect();
    format!("{author}; initialled by {}", initials.join(" and "))
}

/// One round of a player in the TRF: opponent (a player index), colour, result.
fn trf_round(table: &Table, player: usize) -> (Option<usize>, char, char) {
    let Some(second) = table.second else {
        // A pairing bye: TRF's "pairing-allocated bye".
        return (None, '-', 'U');
    };
    let (me, opponent) = if table.first == player {
        (0, second)
    } else {
        (1, table.first)
    };
    if table.no_game {
        let code = match table.forfeit_winner {
            Some(w) if w == me => '+',
            _ => '-',
        };
        return (Some(opponent), '-', code);
    }
    let Some(game) = &table.game else {
        return (None, '-', 'Z');
    };
    let colour = if game.moved_first == me { 'w' } else { 'b' };
    let code = match game.sheet.as_ref().map(super::sheet::Sheet::verdict) {
        None => ' ',
        Some(Verdict::Win {
            winner, forfeit, ..
        }) => match (winner == me, forfeit) {
            (true, true) => '+',
            (false, true) => '-',
            (true, false) => '1',
            (false, false) => '0',
        },
        Some(Verdict::Draw { .. } | Verdict::Annulled { .. }) => '=',
    };
    (Some(opponent), colour, code)
}

fn trf(t: &Tournament) -> String {
    let mut out = String::new();
    let settings = t.settings();
    let _ = writeln!(out, "012 {}", settings.name);
    let _ = writeln!(out, "022 {}", place(t));
    // The federation only when the director set one (an event day's file once claimed
    // "UGA" for every tournament).
    if let Some(federation) = &settings.federation {
        let _ = writeln!(out, "032 {federation}");
    }
    let first_day = day(t.created_at_ms());
    let _ = writeln!(out, "042 {first_day}");
    let last = t
        .rounds()
        .iter()
        .filter_map(|r| r.started_at_ms)
        .max()
        .map_or(first_day.clone(), day);
    let _ = writeln!(out, "052 {last}");
    let _ = writeln!(out, "062 {}", t.players().len());
    let _ = writeln!(out, "072 0");
    let _ = writeln!(
        out,
        "092 {} ({}, first move = white)",
        match settings.system {
            omweso_protocol::tournament::System::Swiss => "Swiss System",
            omweso_protocol::tournament::System::RoundRobin => "Round Robin",
            omweso_protocol::tournament::System::DoubleRoundRobin => "Double Round Robin",
        },
        settings.game.ruleset,
    );
    let _ = writeln!(out, "122 {} min per round", settings.round_minutes);
    // The number of rounds, as pairing programs (JaVaFo, bbpPairings) expect it.
    let _ = writeln!(out, "XXR {}", t.rounds_planned());
    // The point system the codes are added up with (TRF(bx): win, draw, loss, zero-point
    // bye (a round not paired), forfeit loss, pairing-allocated bye).
    let table = &settings.points;
    for (code, milli) in [
        ("BBW", table.win),
        ("BBD", table.draw),
        ("BBL", table.loss),
        ("BBZ", 0),
        ("BBF", table.forfeit_loss),
        ("BBU", table.bye),
    ] {
        let _ = writeln!(out, "{code} {:>4}", trf_points(points(milli)));
    }
    let standings = t.standings();
    // The start rank is the place in the initial order: registration, or a rated
    // tournament's seeding (docs/ratings.md#rated-tournaments). Players are listed by it.
    let order = t.initial_order();
    let mut start_rank = vec![0; order.len()];
    for (k, &i) in order.iter().enumerate() {
        start_rank[i] = k + 1;
    }
    for &i in &order {
        let player = &t.players()[i];
        let line = standings.iter().find(|s| s.player_id == player.id);
        let rank = line.map_or(0, |s| s.rank);
        let mut games = String::new();
        let mut total: Milli = 0;
        for round in t.rounds().iter().filter(|r| r.started_at_ms.is_some()) {
            let table = round
                .tables
                .iter()
                .find(|table| table.first == i || table.second == Some(i));
            let (opponent, colour, code) = match table {
                Some(table) => trf_round(table, i),
                // Not paired (joined later, or withdrawn): no game, no points.
                None => (None, '-', 'Z'),
            };
            total += code_points(code, &settings.points);
            let opponent =
                opponent.map_or_else(|| "0000".to_owned(), |o| format!("{:>4}", start_rank[o]));
            let _ = write!(games, "  {opponent} {colour} {code}");
        }
        // TRF columns count bytes: the name is cut at 33 bytes (on a character boundary)
        // and padded in bytes, so that a name with accents does not shift the columns.
        let name = pad_bytes(&player.name, 33);
        // Columns 1-89: "001", start rank, sex, title, name, rating, federation, FIDE
        // id, birth date, points, rank (TRF16). The rating (columns 49-52) is the one a
        // rated tournament seeded the player with; blank in a casual one, or for a
        // person without an account.
        let rating = player
            .seed_rating
            .map_or_else(String::new, |r| r.clamp(0, 9999).to_string());
        let mut text = format!(
            "001 {:>4} {:1}{:>3} {} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            start_rank[i],
            "",
            "",
            name,
            rating,
            "",
            "",
            "",
            trf_points(points(total)),
            rank
        );
        text.push_str(&games);
        let _ = writeln!(out, "{}", text.trim_end());
    }
    out
}

/// Where the event was played, for the TRF's place line (`022`, a city in TRF16): the
/// server knows no town, so it says truthfully how the games were played - online, over
/// the board, or both - and that this server tabulated them (an event at a wooden board
/// was once written "online"). The tables of the rounds started say it; before any, the
/// tournament's own setting.
fn place(t: &Tournament) -> &'static str {
    let played: Vec<PlayedAt> = t
        .rounds()
        .iter()
        .filter(|r| r.started_at_ms.is_some())
        .flat_map(|r| &r.tables)
        .filter(|table| table.second.is_some() && !table.no_game)
        .map(|table| table.played_at)
        .collect();
    let board = played.contains(&PlayedAt::Board);
    let online = played.contains(&PlayedAt::Online);
    match (online, board) {
        (true, true) => "online and over the board (omweso)",
        (false, true) => "over the board (omweso)",
        (true, false) => "online (omweso)",
        (false, false) => match t.settings().played_at {
            PlayedAt::Board => "over the board (omweso)",
            PlayedAt::Online => "online (omweso)",
        },
    }
}

/// What a TRF result code is worth under the tournament's values, as the file's `BB*` lines
/// declare them: a win (played or by forfeit) the win, a draw (or an annulment) the draw,
/// a loss the loss, a forfeit loss its value, the pairing bye its value; a round not
/// paired, or a game not yet decided, nothing.
fn code_points(code: char, table: &PointsTable) -> Milli {
    match code {
        '1' | '+' => table.win,
        '=' => table.draw,
        '0' => table.loss,
        '-' => table.forfeit_loss,
        'U' => table.bye,
        _ => 0,
    }
}

/// `text` cut to at most `width` bytes on a character boundary, then padded with spaces
/// to exactly `width` bytes.
fn pad_bytes(text: &str, width: usize) -> String {
    let mut end = text.len().min(width);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{}", &text[..end], " ".repeat(width - end))
}

/// Points in TRF's four columns: one decimal ("12.5"), or whole points when that does not
/// fit ("180"); a quarter point is rounded to the tenth, as the field holds.
fn trf_points(points: f64) -> String {
    let tenth = format!("{points:.1}");
    if tenth.len() <= 4 {
        tenth
    } else {
        format!("{points:.0}")
    }
}

/// A day as TRF writes it: YYYY/MM/DD (UTC).
fn day(ms: u64) -> String {
    let (y, m, d) = civil(ms);
    format!("{y:04}/{m:02}/{d:02}")
}

/// A time as ISO 8601 writes it in UTC, to the second: 2026-11-23T14:05:09Z (a
/// spreadsheet reads it; a raw count of milliseconds means nothing to a person).
fn iso_utc(ms: u64) -> String {
    let (y, m, d) = civil(ms);
    let seconds = (ms / 1000) % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// The civil date (UTC) of a time in milliseconds since the epoch.
fn civil(ms: u64) -> (i64, i64, i64) {
    // Days since the epoch to a civil date (Howard Hinnant's algorithm).
    let days = (ms / 86_400_000) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_civil_dates() {
        assert_eq!(day(0), "1970/01/01");
        // 2026-11-23 00:00 UTC.
        assert_eq!(day(1_795_392_000_000), "2026/11/23");
        assert_eq!(day(951_782_400_000), "2000/02/29");
    }

    #[test]
    fn times_are_iso_8601_utc() {
        // The correction time an event day's sheets.csv wrote as "1795635816170".
        assert_eq!(iso_utc(1_795_635_816_170), "2026-11-25T19:43:36Z");
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_868_799_999), "2000-02-29T23:59:59Z");
    }

    #[test]
    fn trf_fields_keep_their_columns() {
        assert_eq!(pad_bytes("Kato", 6), "Kato  ");
        // "é" is two bytes: cut before it rather than in its middle.
        assert_eq!(pad_bytes("Akéllo", 3), "Ak ");
        assert_eq!(pad_bytes("Akéllo", 7), "Akéllo");
        assert_eq!(trf_points(2.5), "2.5");
        assert_eq!(trf_points(12.0), "12.0");
        assert_eq!(trf_points(180.0), "180");
    }

    #[test]
    fn formula_like_names_are_defused() {
        assert_eq!(cell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(cell("Kato"), "Kato");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1.25), "1.25");
    }
}
