//! A move's comment (docs/game-file.md#comments): commands `[%emt ...]` and
//! `[%budget ...]` first, then free text with `\` before each of `\ { } [ ]`.

/// The characters a comment's text writes with a `\` before them.
pub(crate) const ESCAPED: [char; 5] = ['\\', '{', '}', '[', ']'];

/// A command of a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// `[%emt H:MM:SS.mmm]`: elapsed move time.
    Emt(u64),
    /// `[%budget N]`: the sowing budget the turn ran out of.
    Budget(u64),
}

/// Reads a command's body (what is between `[` and `]`).
pub(crate) fn command(body: &str) -> Result<Command, String> {
    let (name, value) = body.split_once(' ').unwrap_or((body, ""));
    match name {
        "%emt" => emt(value).map(Command::Emt).ok_or_else(|| {
            format!("[%emt {value}]: the time is H:MM:SS or H:MM:SS.mmm, such as 0:00:02.400")
        }),
        "%budget" => number(value)
            .map(Command::Budget)
            .ok_or_else(|| format!("[%budget {value}]: the budget is a number of seeds")),
        _ => Err(format!(
            "unknown command [{body}]: a comment's commands are [%emt H:MM:SS.mmm] and [%budget N]"
        )),
    }
}

/// Digits only, no leading zero (but `0`), no overflow.
fn number(text: &str) -> Option<u64> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

/// Exactly `digits`.
fn fixed(text: &str, digits: usize) -> Option<u64> {
    (text.len() == digits && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn emt(text: &str) -> Option<u64> {
    let (clock, millis) = match text.split_once('.') {
        Some((clock, millis)) => (clock, fixed(millis, 3)?),
        None => (text, 0),
    };
    let mut parts = clock.split(':');
    let hours = number(parts.next()?)?;
    let minutes = fixed(parts.next()?, 2).filter(|m| *m < 60)?;
    let seconds = fixed(parts.next()?, 2).filter(|s| *s < 60)?;
    if parts.next().is_some() {
        return None;
    }
    hours
        .checked_mul(3_600_000)?
        .checked_add(minutes * 60_000 + seconds * 1000 + millis)
}

/// `ms` as `H:MM:SS.mmm`.
pub(crate) fn write_emt(ms: u64) -> String {
    let hours = ms / 3_600_000;
    let minutes = ms / 60_000 % 60;
    let seconds = ms / 1000 % 60;
    format!("{hours}:{minutes:02}:{seconds:02}.{:03}", ms % 1000)
}

/// The text with its special characters escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if ESCAPED.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_and_write_exactly() {
        assert_eq!(command("%emt 0:00:02.400"), Ok(Command::Emt(2_400)));
        assert_eq!(command("%emt 1:02:03"), Ok(Command::Emt(3_723_000)));
        assert_eq!(write_emt(3_723_004), "1:02:03.004");
        assert_eq!(write_emt(0), "0:00:00.000");
        assert_eq!(write_emt(u64::MAX), "5124095576030:25:51.615");
        assert_eq!(emt(&write_emt(u64::MAX)), Some(u64::MAX));
        for bad in [
            "0:60:00",
            "0:00:2",
            "0:00:02.4",
            "00:00:02",
            "1:00",
            "",
            "5124095576031:00:00",
        ] {
            assert!(emt(bad).is_none(), "{bad}");
        }
        assert_eq!(command("%budget 720"), Ok(Command::Budget(720)));
        assert!(command("%budget 0720").is_err());
        assert!(command("%clk 0:01:00")
            .unwrap_err()
            .contains("unknown command"));
    }
}
