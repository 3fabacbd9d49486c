//! `omweso engine`: one JSON request per line in, one JSON response per line out
//! (docs/engine-cli.md). A bad request is answered with `{"error": ...}` and the next
//! line is read as usual; nothing a request says can stop the loop.

use std::io::{self, BufRead, Write};

use std::sync::atomic::AtomicBool;

use omweso_rules::{Game, GameMove, Outcome, ParseGameError, PlayResult, Ruleset, Side};
use omweso_search::{best_move, Level, Limit, Query};
use serde::Serialize;
use serde_json::{Map, Value};

/// The longest request line read; a longer one is answered with an error and skipped, so
/// one bad line cannot make the process hold gigabytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The sowing budget of `bestmove` when the request gives none: the server's (docs/rules.md#4-play-under-the-referee-server-rules).
pub const BESTMOVE_MAX_SEEDS: u64 = 720;

/// How the engine answers, beyond what requests say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Searches `bestmove` at most this many nodes, whatever its `millis` or `level`
    /// (`None`: as asked). For the fuzz target, which must not think for a minute on one
    /// input; the answer's shape is the same.
    pub search_nodes_cap: Option<u64>,
}

/// Answers every request line of `input` on `output`, flushing after each, until the end
/// of `input`.
pub fn run<R: BufRead, W: Write>(input: R, output: W) -> io::Result<()> {
    run_with(input, output, &Options::default())
}

/// As [`run`], with `options`.
pub fn run_with<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    options: &Options,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let (read, complete) = read_line_capped(&mut input, &mut line, MAX_LINE_BYTES)?;
        if read == 0 {
            return Ok(());
        }
        let response = if complete {
            match std::str::from_utf8(&line) {
                Ok(text) => respond_with(text.trim_end_matches(['\n', '\r']), options),
                Err(_) => error_json("the request is not valid UTF-8"),
            }
        } else {
            error_json(&format!(
                "the request line is longer than {MAX_LINE_BYTES} bytes"
            ))
        };
        output.write_all(response.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
}

/// Reads one line into `buf`, keeping at most `cap` bytes of it (the rest is consumed and
/// dropped). Returns the bytes consumed and whether the line fit.
fn read_line_capped<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut fits = true;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((consumed, fits));
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        if fits && buf.len() + part.len() <= cap {
            buf.extend_from_slice(part);
        } else {
            fits = false;
        }
        let n = part.len();
        input.consume(n);
        consumed += n;
        if done {
            return Ok((consumed, fits));
        }
    }
}

/// The response line (without newline) to one request line.
#[must_use]
pub fn respond(line: &str) -> String {
    respond_with(line, &Options::default())
}

/// As [`respond`], with `options`.
#[must_use]
pub fn respond_with(line: &str, options: &Options) -> String {
    match handle(line, options) {
        Ok(json) => json,
        Err(message) => error_json(&message),
    }
}

fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

fn to_json<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("internal error writing the response: {e}"))
}

/// A parsed request's fields, each taken out of the JSON object once; whatever is left
/// over at the end is an unknown field.
struct Fields(Map<String, Value>);

impl Fields {
    fn take_str(&mut self, key: &str) -> Result<Option<String>, String> {
        match self.0.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!("\"{key}\" must be a string, not {other}")),
        }
    }

    fn require_str(&mut self, key: &str) -> Result<String, String> {
        self.take_str(key)?
            .ok_or_else(|| format!("the request has no \"{key}\""))
    }

    fn take_budget(&mut self) -> Result<Option<u64>, String> {
        match self.0.remove("max_seeds") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64()),
            Some(other) => Err(format!(
                "\"max_seeds\" must be a whole number of seeds, 0 or more, not {other}"
            )),
        }
    }

    /// An optional whole number, `min` or more.
    fn take_u64(&mut self, key: &str, what: &str) -> Result<Option<u64>, String> {
        match self.0.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64()),
            Some(other) => Err(format!("\"{key}\" must be {what}, not {other}")),
        }
    }

    fn take_side(&mut self) -> Result<Option<Side>, String> {
        self.take_str("side")?
            .map(|s| s.parse().map_err(|e| format!("\"side\": {e}")))
            .transpose()
    }

    /// The optional akakyala extension: `"akakyala": {"s": bool, "n": bool}` turns the
    /// rule on and says which players captured in an earlier turn.
    fn take_akakyala(&mut self) -> Result<Option<[bool; 2]>, String> {
        let Some(value) = self.0.remove("akakyala") else {
            return Ok(None);
        };
        let shape = || {
            format!(
                "\"akakyala\" must be {{\"s\": true|false, \"n\": true|false}} (who has captured in an earlier turn), not {value}"
            )
        };
        let Value::Object(map) = &value else {
            return Err(shape());
        };
        let mut flags = [false; 2];
        for (key, flag) in map {
            let side: Side = key.parse().map_err(|_| shape())?;
            flags[side.index()] = flag.as_bool().ok_or_else(shape)?;
        }
        Ok(Some(flags))
    }

    fn finish(self, op: &str, allowed: &str) -> Result<(), String> {
        match self.0.keys().next() {
            None => Ok(()),
            Some(key) => Err(format!(
                "unknown field \"{key}\" in a {op} request; it takes {allowed}"
            )),
        }
    }
}

fn handle(line: &str, options: &Options) -> Result<String, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}"))?;
    let Value::Object(map) = value else {
        return Err(format!("a request is a JSON object, not {value}"));
    };
    let mut fields = Fields(map);
    let op = fields.require_str("op")?;
    match op.as_str() {
        "read_game" => {
            let text = fields.require_str("text")?;
            fields.finish("read_game", "op, text")?;
            return crate::game_files::read(&text);
        }
        "write_game" => {
            let record = fields
                .0
                .remove("record")
                .ok_or("the request has no \"record\"")?;
            fields.finish("write_game", "op, record")?;
            return crate::game_files::write(record);
        }
        _ => {}
    }
    let ruleset: Ruleset = fields
        .require_str("ruleset")?
        .parse()
        .map_err(|e: omweso_rules::ParseRulesetError| e.to_string())?;
    let position = fields.require_str("position")?;
    let budget = fields.take_budget()?;
    let side = fields.take_side()?;
    match op.as_str() {
        "moves" => {
            let akakyala = fields.take_akakyala()?;
            fields.finish(
                "moves",
                "op, ruleset, position, and optionally max_seeds, side, akakyala",
            )?;
            moves(ruleset, &position, side, budget, akakyala)
        }
        "play" => {
            let mv = fields.require_str("move")?;
            let akakyala = fields.take_akakyala()?;
            fields.finish(
                "play",
                "op, ruleset, position, move, and optionally max_seeds, side, akakyala",
            )?;
            play(ruleset, &position, side, &mv, budget, akakyala)
        }
        "bestmove" => {
            let millis = fields.take_u64("millis", "a whole number of milliseconds")?;
            let level = fields.take_u64("level", "a level, 1 to 8")?;
            let seed = fields.take_u64("seed", "a whole number, 0 or more")?;
            let akakyala = fields.take_akakyala()?;
            fields.finish(
                "bestmove",
                "op, ruleset, position, millis or level, and optionally max_seeds, side, seed, akakyala",
            )?;
            let limit = match (millis, level) {
                (Some(_), Some(_)) => {
                    return Err(
                        "a bestmove request gives \"millis\" or \"level\", not both".into(),
                    )
                }
                (None, None) => {
                    return Err(
                        "a bestmove request needs \"millis\" (a time budget, at most 60000 ms) or \"level\" (1 to 8)".into(),
                    )
                }
                (Some(millis), None) => Limit::Millis(millis),
                (None, Some(level)) => Limit::Level(
                    Level::new(i64::try_from(level).unwrap_or(i64::MAX))
                        .map_err(|e| format!("\"level\": {e}"))?,
                ),
            };
            let request = BestMoveRequest {
                ruleset,
                text: &position,
                side,
                budget: Some(budget.unwrap_or(BESTMOVE_MAX_SEEDS)),
                limit,
                seed: seed.unwrap_or(0),
                akakyala,
            };
            bestmove(&request, options)
        }
        other => Err(format!(
            "unknown op \"{other}\": expected \"moves\", \"play\", \"bestmove\", \"read_game\" or \"write_game\""
        )),
    }
}

#[derive(Serialize)]
struct MovesResponse {
    moves: Vec<String>,
    outcome: Option<Outcome>,
}

#[derive(Serialize)]
struct PlayResponse {
    position: String,
    captured: u32,
    capture_columns: String,
    laps: u64,
    seeds_sown: u64,
    end: &'static str,
    outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scores: Option<Scores>,
}

#[derive(Serialize)]
struct BestMoveResponse {
    #[serde(rename = "move")]
    mv: String,
    score: f64,
    depth: u32,
    nodes: u64,
    /// The principal line, `move` first (an addition, docs/engine-cli.md).
    pv: Vec<String>,
}

#[derive(Serialize)]
struct Scores {
    s: u8,
    n: u8,
}

/// Parses a position of `ruleset`, with the akakyala extension applied.
fn game(ruleset: Ruleset, text: &str, akakyala: Option<[bool; 2]>) -> Result<Game, String> {
    // The CLI has always let an Oware request carry `akakyala` and ignored it; kept so, so
    // that no request that worked starts failing (Mweiso's is refused, as it always was).
    let akakyala = akakyala.filter(|_| ruleset != Ruleset::Oware);
    Game::parse_with_akakyala(ruleset, text, akakyala).map_err(|e| match e {
        ParseGameError::Akakyala { .. } => e.to_string(),
        ParseGameError::Board(_) | ParseGameError::Oware(_) => {
            format!("malformed position: {e}")
        }
    })
}

/// Who plays: the side to move, checked against the request's `side`; in Mweiso's
/// opening `side` says which of the players owing their opening turn plays.
fn mover(game: &Game, side: Option<Side>) -> Result<Side, String> {
    match (game.to_move(), side) {
        (None, Some(side)) => Ok(side),
        (None, None) => Err(
            "both players still owe their Mweiso opening turn; say which plays with \"side\":\"s\" or \"n\"".into(),
        ),
        (Some(moving), Some(side)) if side != moving => Err(format!(
            "\"side\" is {side}, but in this position only {} may move",
            moving.char()
        )),
        (Some(moving), _) => Ok(moving),
    }
}

fn moves(
    ruleset: Ruleset,
    text: &str,
    side: Option<Side>,
    budget: Option<u64>,
    akakyala: Option<[bool; 2]>,
) -> Result<String, String> {
    let game = game(ruleset, text, akakyala)?;
    let side = mover(&game, side)?;
    let outcome = game.outcome();
    let moves = game
        .legal_moves(side, budget)
        .iter()
        .map(ToString::to_string)
        .collect();
    to_json(&MovesResponse { moves, outcome })
}

fn play(
    ruleset: Ruleset,
    text: &str,
    side: Option<Side>,
    mv: &str,
    budget: Option<u64>,
    akakyala: Option<[bool; 2]>,
) -> Result<String, String> {
    let game = game(ruleset, text, akakyala)?;
    let side = mover(&game, side)?;
    let parsed = GameMove::parse(ruleset, mv).map_err(|e| format!("malformed move {mv:?}: {e}"))?;
    let PlayResult {
        game: after,
        summary,
        outcome,
    } = game
        .play_as(side, &parsed, budget)
        .map_err(|e| format!("illegal move {mv}: {e}"))?;
    to_json(&PlayResponse {
        position: after.to_string(),
        captured: summary.captured,
        capture_columns: summary.capture_columns_letters(),
        laps: summary.laps,
        seeds_sown: summary.seeds_sown,
        end: summary.end.name(),
        outcome,
        scores: after.scores().map(|[s, n]| Scores { s, n }),
    })
}

struct BestMoveRequest<'a> {
    ruleset: Ruleset,
    text: &'a str,
    side: Option<Side>,
    budget: Option<u64>,
    limit: Limit,
    seed: u64,
    akakyala: Option<[bool; 2]>,
}

fn bestmove(request: &BestMoveRequest<'_>, options: &Options) -> Result<String, String> {
    let game = game(request.ruleset, request.text, request.akakyala)?;
    if let Some(outcome) = game.outcome() {
        return Err(format!(
            "the game is over in this position ({outcome}): there is no move to find"
        ));
    }
    let side = mover(&game, request.side)?;
    let limit = match (options.search_nodes_cap, request.limit) {
        (None, limit) => limit,
        (Some(cap), Limit::Level(level)) => Limit::Nodes(level.nodes(request.ruleset).min(cap)),
        (Some(cap), Limit::Nodes(nodes)) => Limit::Nodes(nodes.min(cap)),
        (Some(cap), Limit::Millis(millis)) if millis <= omweso_search::MAX_MILLIS => {
            Limit::Nodes(cap)
        }
        (Some(_), limit) => limit,
    };
    let query = Query {
        game,
        side,
        max_seeds: request.budget,
        limit,
        seed: request.seed,
    };
    let found = best_move(&query, &AtomicBool::new(false)).map_err(|e| e.to_string())?;
    to_json(&BestMoveResponse {
        mv: found.mv.to_string(),
        // Four decimals say all a score means.
        score: (found.score * 1e4).round() / 1e4,
        depth: found.depth,
        nodes: found.nodes,
        pv: found.pv.iter().map(ToString::to_string).collect(),
    })
}
