//! Reading a game file (docs/game-file.md#grammar): any number of games, each its tag
//! pairs and then its movetext, ended by its result. Everything the file says is checked
//! here except the moves' legality, which [`GameRecord::replay`] checks with the rules.

use std::collections::HashMap;
use std::str::FromStr;

use omweso_rules::{Game, GameMove, Ruleset, Side};

use crate::comment::{self, Command};
use crate::record::{GameRecord, GameResult, ImpasseRecord, MoveRecord, Tag, Termination};

/// Why a game file could not be read: where (1-based line and column, columns counted in
/// characters) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {what}")]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub what: String,
}

/// The most games one text may hold, and the longest game: a bound on what a reader
/// builds from hostile input (a file of 2 MiB holds at most about 500,000 moves anyway).
pub const MAX_GAMES: usize = 100_000;

/// The most tag pairs one game may have: a real game has about twenty; a bound keeps a
/// file of thousands of made-up tags from costing more than reading it.
pub const MAX_TAGS: usize = 256;

/// Reads every game of `text`.
pub fn parse_games(text: &str) -> Result<Vec<GameRecord>, ParseError> {
    let mut reader = Reader::new(text);
    let mut games = Vec::new();
    loop {
        reader.skip_space();
        if reader.at_end() {
            return Ok(games);
        }
        if games.len() == MAX_GAMES {
            return Err(reader.error(format!("a file holds at most {MAX_GAMES} games")));
        }
        games.push(reader.game()?);
    }
}

/// Where something was read, for errors found after it.
#[derive(Clone, Copy, Debug)]
struct At {
    line: usize,
    column: usize,
}

impl At {
    fn error(self, what: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            column: self.column,
            what: what.into(),
        }
    }
}

struct Reader<'a> {
    rest: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

/// A tag as read, with where it was.
struct ReadTag {
    tag: Tag,
    at: At,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        // A byte order mark some editors put first is not part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Reader {
            rest: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn at(&self) -> At {
        At {
            line: self.line,
            column: self.column,
        }
    }

    fn error(&self, what: impl Into<String>) -> ParseError {
        self.at().error(what)
    }

    fn at_end(&mut self) -> bool {
        self.rest.peek().is_none()
    }

    fn peek(&mut self) -> Option<char> {
        self.rest.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.rest.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.next();
        }
    }

    /// Skips spaces and tabs only: a tag pair is one line.
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.next();
        }
    }

    fn expect(&mut self, want: char, what: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(c) if c == want => {
                self.next();
                Ok(())
            }
            Some(c) => Err(self.error(format!("expected {what}, found {}", shown(c)))),
            None => Err(self.error(format!("expected {what}, found the end of the file"))),
        }
    }

    fn game(&mut self) -> Result<GameRecord, ParseError> {
        let start = self.at();
        let mut tags: Vec<ReadTag> = Vec::new();
        // Each name's line, to find a second tag of a name in one look rather than a walk
        // through the tags read so far.
        let mut seen: HashMap<String, usize> = HashMap::new();
        while self.peek() == Some('[') {
            if tags.len() == MAX_TAGS {
                return Err(self.error(format!("a game has at most {MAX_TAGS} tag pairs")));
            }
            let tag = self.tag()?;
            if let Some(first_line) = seen.get(&tag.tag.name) {
                return Err(tag.at.error(format!(
                    "a second {} tag (the first is on line {first_line})",
                    tag.tag.name
                )));
            }
            seen.insert(tag.tag.name.clone(), tag.at.line);
            tags.push(tag);
            self.skip_space();
        }
        if tags.is_empty() {
            return Err(start.error(match self.peek() {
                Some(c) => format!(
                    "expected a tag pair such as [Ruleset \"omweso\"] to begin a game, found {}",
                    shown(c)
                ),
                None => "expected a tag pair to begin a game".to_owned(),
            }));
        }
        let mut record = header(start, tags)?;
        let (result, result_at) = self.movetext(&mut record)?;
        if result != record.result {
            return Err(result_at.error(format!(
                "the moves end with {result}, but the Result tag says {}",
                record.result
            )));
        }
        Ok(record)
    }

    /// `[Name "value"]`, alone on its line apart from spaces.
    fn tag(&mut self) -> Result<ReadTag, ParseError> {
        let at = self.at();
        self.expect('[', "[")?;
        self.skip_blanks();
        let name_at = self.at();
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.next();
        }
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(name_at.error(
                "a tag's name is a letter followed by letters, digits and _ (such as Event)",
            ));
        }
        self.skip_blanks();
        self.expect('"', "the opening \" of the tag's value")?;
        let mut value = String::new();
        loop {
            let here = self.at();
            match self.next() {
                None | Some('\n') => {
                    return Err(
                        here.error(format!("the value of {name} has no closing \" on its line"))
                    )
                }
                Some('"') => break,
                Some('\\') => match self.next() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    other => {
                        return Err(here.error(format!(
                            "in a tag's value \\ escapes only \" and \\, not {}",
                            other.map_or("the end of the file".to_owned(), shown)
                        )))
                    }
                },
                Some(c) if c.is_control() => {
                    return Err(here.error(format!(
                        "a tag's value holds no control characters ({})",
                        shown(c)
                    )))
                }
                Some(c) => value.push(c),
            }
        }
        self.skip_blanks();
        self.expect(']', "the ] closing the tag pair")?;
        Ok(ReadTag {
            tag: Tag { name, value },
            at,
        })
    }

    /// The numbered moves with their comments, up to and including the result token.
    fn movetext(&mut self, record: &mut GameRecord) -> Result<(GameResult, At), ParseError> {
        loop {
            self.skip_space();
            let at = self.at();
            match self.peek() {
                None => {
                    return Err(at.error(format!(
                        "the game has no result at the end of its moves (expected {})",
                        record.result
                    )))
                }
                Some('{') => {
                    let Some(last) = record.moves.last_mut() else {
                        return Err(
                            at.error("a comment follows a move; this one has none before it")
                        );
                    };
                    if last.emt_ms.is_some() || last.budget.is_some() || last.comment.is_some() {
                        return Err(at.error(format!(
                            "move {} has a comment already: one {{...}} a move",
                            record.moves.len()
                        )));
                    }
                    self.next();
                    self.comment(last)?;
                }
                Some('[') => {
                    return Err(at
                        .error("a tag pair inside the moves: the game before has no result token"))
                }
                Some(_) => {
                    let word = self.word();
                    if let Some(result) = GameResult::from_token(&word) {
                        return Ok((result, at));
                    }
                    if let Some(number) = word.strip_suffix('.') {
                        let want = record.moves.len() + 1;
                        if number.parse::<usize>().ok() != Some(want) {
                            return Err(
                                at.error(format!("move number {word} where move {want}. was due"))
                            );
                        }
                        continue;
                    }
                    record.moves.push(a_move(record.ruleset, &word, at)?);
                }
            }
        }
    }

    /// A run of characters up to a space, a brace or a bracket.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| !c.is_whitespace() && !matches!(c, '{' | '}' | '[' | ']'))
        {
            word.push(c);
            self.next();
        }
        if word.is_empty() {
            // A lone `}` or `]`: taken as a word of its own, which no rule accepts.
            if let Some(c) = self.next() {
                word.push(c);
            }
        }
        word
    }

    /// The rest of a comment after its `{`: commands, then free text, up to `}`.
    fn comment(&mut self, mv: &mut MoveRecord) -> Result<(), ParseError> {
        let mut text = String::new();
        let mut commands_over = false;
        loop {
            let here = self.at();
            match self.next() {
                None => return Err(here.error("a comment has no closing }")),
                Some('}') => break,
                Some('\\') => match self.next() {
                    Some(c) if comment::ESCAPED.contains(&c) => {
                        commands_over = true;
                        text.push(c);
                    }
                    other => {
                        return Err(here.error(format!(
                            "in a comment \\ escapes only \\ {{ }} [ ], not {}",
                            other.map_or("the end of the file".to_owned(), shown)
                        )))
                    }
                },
                Some('[') if !commands_over && text.trim().is_empty() => {
                    text.clear();
                    let body = self.command_body(here)?;
                    match comment::command(&body).map_err(|e| here.error(e))? {
                        Command::Emt(ms) if mv.emt_ms.is_none() => mv.emt_ms = Some(ms),
                        Command::Budget(b) if mv.budget.is_none() => mv.budget = Some(b),
                        _ => return Err(here.error(format!("a second [{body}] in one comment"))),
                    }
                }
                Some(c @ ('{' | '[' | ']')) => {
                    return Err(here.error(format!(
                        "{c} in a comment's text is written \\{c}; commands such as [%emt ...] come before the text"
                    )))
                }
                Some(c) => {
                    if !c.is_whitespace() {
                        commands_over = true;
                    }
                    text.push(c);
                }
            }
        }
        let text = text.trim();
        if !text.is_empty() {
            mv.comment = Some(text.to_owned());
        }
        Ok(())
    }

    /// A command's text after its `[`, up to its `]`.
    fn command_body(&mut self, at: At) -> Result<String, ParseError> {
        let mut body = String::new();
        loop {
            match self.next() {
                None | Some('}') => return Err(at.error("a [%command] has no closing ]")),
                Some(']') => return Ok(body),
                Some(c) if body.len() > 64 => {
                    return Err(at.error(format!("a [%command] this long is no command ({c}...)")))
                }
                Some(c) => body.push(c),
            }
        }
    }
}

/// A move token: the notation, `^` after it for a stolen turn.
fn a_move(ruleset: Ruleset, word: &str, at: At) -> Result<MoveRecord, ParseError> {
    let (text, stolen) = match word.strip_suffix('^') {
        Some(text) => (text, true),
        None => (word, false),
    };
    let mv = GameMove::parse(ruleset, text)
        .map_err(|e| at.error(format!("{word:?} is not a move of {ruleset}: {e}")))?;
    Ok(MoveRecord {
        side: mv.side(),
        notation: mv.to_string(),
        stolen,
        emt_ms: None,
        budget: None,
        comment: None,
    })
}

/// The record the tags describe: the reserved ones read and checked, the others kept.
fn header(start: At, tags: Vec<ReadTag>) -> Result<GameRecord, ParseError> {
    let find = |name: &str| tags.iter().find(|t| t.tag.name == name);
    let Some(ruleset_tag) = find("Ruleset") else {
        return Err(start
            .error("the game has no Ruleset tag ([Ruleset \"omweso\"], \"mweiso\" or \"oware\")"));
    };
    let ruleset = Ruleset::from_str(&ruleset_tag.tag.value)
        .map_err(|e| ruleset_tag.at.error(e.to_string()))?;
    let mut record = GameRecord::new(ruleset);
    if let Some(t) = find("Akakyala") {
        if t.tag.value != "on" || ruleset != Ruleset::Omweso {
            return Err(t
                .at
                .error("Akakyala is written only as [Akakyala \"on\"], and only in Omweso"));
        }
        record.akakyala = true;
    }
    if let Some(t) = find("Setup") {
        let game = Game::parse(ruleset, &t.tag.value).map_err(|e| {
            t.at.error(format!("the Setup is not a position of {ruleset}: {e}"))
        })?;
        record.setup = Some(game.to_string());
    }
    let Some(result_tag) = find("Result") else {
        return Err(start.error("the game has no Result tag ([Result \"1-0\"] and so on)"));
    };
    record.result = GameResult::from_token(&result_tag.tag.value).ok_or_else(|| {
        result_tag.at.error(format!(
            "unknown result {:?}: expected 1-0, 0-1, 1/2-1/2, annulled or *",
            result_tag.tag.value
        ))
    })?;
    match (find("Termination"), record.result) {
        (None, GameResult::Unfinished) => {}
        (Some(t), GameResult::Unfinished) => {
            return Err(t.at.error("an unfinished game (*) has no Termination"))
        }
        (None, result) => {
            return Err(result_tag.at.error(format!(
                "a game whose result is {result} needs a Termination tag"
            )))
        }
        (Some(t), result) => {
            let termination: Termination = t.tag.value.parse().map_err(|e| t.at.error(e))?;
            if !termination.fits(result) {
                return Err(t.at.error(format!(
                    "a game whose result is {result} cannot end by {termination}"
                )));
            }
            record.termination = Some(termination);
        }
    }
    if let Some(t) = find("Impasse") {
        record.impasse = Some(impasse(&t.tag.value).map_err(|e| t.at.error(e))?);
    }
    let at_impasse = record.termination.map(Termination::name) == Some("impasse");
    match (record.impasse.is_some(), at_impasse) {
        (true, true) if ruleset != Ruleset::Oware => {
            return Err(start.error("only Oware ends at an impasse"))
        }
        (true, false) => return Err(start.error("an Impasse tag needs [Termination \"impasse\"]")),
        (false, true) => {
            return Err(start.error(
                "a game ended at an impasse says how the seeds were split: [Impasse \"s 3 4\"]",
            ))
        }
        _ => {}
    }
    record.tags = tags
        .into_iter()
        .filter(|t| !crate::record::RESERVED_TAGS.contains(&t.tag.name.as_str()))
        .map(|t| t.tag)
        .collect();
    Ok(record)
}

/// `s 3 4`: who proposed to stop, then the seeds South and North took of those left.
fn impasse(value: &str) -> Result<ImpasseRecord, String> {
    let bad = || {
        format!(
            "{value:?} is not an impasse: write who proposed (s or n), then the seeds South and North took, as \"s 3 4\""
        )
    };
    let parts: Vec<&str> = value.split(' ').collect();
    let [side, south, north] = parts[..] else {
        return Err(bad());
    };
    let proposed_by = match side {
        "s" => Side::South,
        "n" => Side::North,
        _ => return Err(bad()),
    };
    let count = |t: &str| {
        if t.len() > 1 && t.starts_with('0') {
            return None;
        }
        t.parse::<u8>().ok().filter(|n| *n <= 48)
    };
    Ok(ImpasseRecord {
        proposed_by,
        split: [count(south).ok_or_else(bad)?, count(north).ok_or_else(bad)?],
    })
}

/// A character as an error message shows it.
fn shown(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("{:?}", c)
    } else {
        format!("'{c}'")
    }
}
