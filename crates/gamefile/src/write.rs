//! Writing a game (docs/game-file.md#writing): the tags one a line, a blank line, the
//! numbered moves wrapped at 80 columns, the result, a blank line.

use std::fmt::Write as _;

use crate::comment::{escape, write_emt};
use crate::record::{GameRecord, MoveRecord, RESERVED_TAGS};

/// The widest movetext line a writer makes (a long comment may make one wider).
pub const LINE_WIDTH: usize = 80;

/// The game as OGN text, ending with a blank line, so that games written one after
/// another make a file.
#[must_use]
pub fn write_game(record: &GameRecord) -> String {
    let mut out = String::new();
    for tag in &record.tags {
        if !RESERVED_TAGS.contains(&tag.name.as_str()) {
            tag_line(&mut out, &tag.name, &tag.value);
        }
    }
    tag_line(&mut out, "Ruleset", record.ruleset.name());
    if record.akakyala {
        tag_line(&mut out, "Akakyala", "on");
    }
    if let Some(setup) = &record.setup {
        tag_line(&mut out, "Setup", setup);
    }
    if let Some(impasse) = &record.impasse {
        let [s, n] = impasse.split;
        let by = impasse.proposed_by;
        tag_line(&mut out, "Impasse", &format!("{by} {s} {n}"));
    }
    tag_line(&mut out, "Result", record.result.token());
    if let Some(termination) = record.termination {
        tag_line(&mut out, "Termination", termination.name());
    }
    out.push('\n');
    let mut line = String::new();
    let put = |out: &mut String, line: &mut String, item: &str| {
        if !line.is_empty() && line.chars().count() + 1 + item.chars().count() > LINE_WIDTH {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(item);
    };
    for (i, mv) in record.moves.iter().enumerate() {
        // The number and its move stay on one line.
        put(
            &mut out,
            &mut line,
            &format!("{}. {}", i + 1, move_token(mv)),
        );
        if let Some(comment) = comment(mv) {
            put(&mut out, &mut line, &comment);
        }
    }
    put(&mut out, &mut line, record.result.token());
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn move_token(mv: &MoveRecord) -> String {
    if mv.stolen {
        format!("{}^", mv.notation)
    } else {
        mv.notation.clone()
    }
}

/// `{[%emt ...] [%budget ...] text}`, or nothing when the move has none of them.
fn comment(mv: &MoveRecord) -> Option<String> {
    let text = mv.comment.as_deref().map(str::trim).unwrap_or("");
    let mut parts = Vec::new();
    if let Some(ms) = mv.emt_ms {
        parts.push(format!("[%emt {}]", write_emt(ms)));
    }
    if let Some(budget) = mv.budget {
        parts.push(format!("[%budget {budget}]"));
    }
    if !text.is_empty() {
        parts.push(escape(text));
    }
    (!parts.is_empty()).then(|| format!("{{{}}}", parts.join(" ")))
}

/// `[Name "value"]`, the value's `\` and `"` escaped and any control character (which a
/// value cannot hold) written as a space.
fn tag_line(out: &mut String, name: &str, value: &str) {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                escaped.push('\\');
                escaped.push(c);
            }
            c if c.is_control() => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}
