//! The recent events of a room, each kept as the text every socket was sent (encoded
//! once), so that a client reconnecting with `?v=N` gets exactly the events after `N`
//! instead of the whole state, while they are still kept.

use std::collections::VecDeque;

use axum::extract::ws::Utf8Bytes;

/// A ring of the latest events by version, bounded in number and in bytes (a tournament's
/// standings event of a large field is large).
#[derive(Debug)]
pub struct History {
    events: VecDeque<(u64, Utf8Bytes)>,
    bytes: usize,
    max_events: usize,
    max_bytes: usize,
}

impl History {
    /// A ring keeping at most `max_events` events and `max_bytes` bytes of them (the
    /// oldest go first; an event larger than `max_bytes` alone empties it).
    #[must_use]
    pub fn new(max_events: usize, max_bytes: usize) -> History {
        History {
            events: VecDeque::new(),
            bytes: 0,
            max_events,
            max_bytes,
        }
    }

    /// Keeps the event of version `version`, sent as `text`; versions come in order.
    pub fn push(&mut self, version: u64, text: Utf8Bytes) {
        self.bytes += text.len();
        self.events.push_back((version, text));
        while self.events.len() > self.max_events || self.bytes > self.max_bytes {
            match self.events.pop_front() {
                Some((_, old)) => self.bytes -= old.len(),
                None => break,
            }
        }
    }

    /// What a client that saw version `after` missed, the room being at `version`: the
    /// events after `after`, oldest first (none when it is up to date); or `None` when
    /// the state must be sent instead: `after` is in the future, the events after it are
    /// no longer all kept, or `at_most` of them or more are missing (more than the
    /// connection's queue takes).
    #[must_use]
    pub fn missed(&self, after: u64, version: u64, at_most: u64) -> Option<Vec<Utf8Bytes>> {
        if after > version {
            return None;
        }
        if after == version {
            return Some(Vec::new());
        }
        let oldest = self.events.front().map(|(v, _)| *v)?;
        let fits = version - after < at_most;
        (oldest <= after + 1 && fits).then(|| {
            self.events
                .iter()
                .filter(|(v, _)| *v > after)
                .map(|(_, text)| text.clone())
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events 1..=n, event v's text being "e{v}".
    fn history(n: u64, max_events: usize, max_bytes: usize) -> History {
        let mut history = History::new(max_events, max_bytes);
        for v in 1..=n {
            history.push(v, format!("e{v}").into());
        }
        history
    }

    fn texts(missed: Option<Vec<Utf8Bytes>>) -> Option<Vec<String>> {
        missed.map(|m| m.iter().map(|t| t.as_str().to_owned()).collect())
    }

    #[test]
    fn a_version_inside_the_window_gets_exactly_the_events_after_it() {
        // Events 1..=10 kept in a ring of 4: 7, 8, 9, 10.
        let history = history(10, 4, usize::MAX);
        assert_eq!(
            texts(history.missed(6, 10, 100)),
            Some(vec!["e7".into(), "e8".into(), "e9".into(), "e10".into()])
        );
        assert_eq!(
            texts(history.missed(8, 10, 100)),
            Some(vec!["e9".into(), "e10".into()])
        );
        assert_eq!(texts(history.missed(9, 10, 100)), Some(vec!["e10".into()]));
    }

    #[test]
    fn an_up_to_date_client_misses_nothing() {
        assert_eq!(
            texts(history(10, 4, usize::MAX).missed(10, 10, 100)),
            Some(vec![])
        );
        // Even with nothing kept at all.
        assert_eq!(
            texts(History::new(4, usize::MAX).missed(0, 0, 100)),
            Some(vec![])
        );
    }

    #[test]
    fn a_version_outside_the_window_gets_the_state() {
        let history = history(10, 4, usize::MAX);
        // Event 6 is no longer kept.
        assert_eq!(texts(history.missed(5, 10, 100)), None);
        assert_eq!(texts(history.missed(0, 10, 100)), None);
        // A version the room never reached.
        assert_eq!(texts(history.missed(11, 10, 100)), None);
        // Nothing kept yet, but a version behind.
        assert_eq!(texts(History::new(4, usize::MAX).missed(0, 3, 100)), None);
    }

    #[test]
    fn more_missed_events_than_the_queue_takes_get_the_state() {
        let history = history(10, 10, usize::MAX);
        // 4 missed: sent when fewer than `at_most`.
        assert_eq!(
            texts(history.missed(6, 10, 5)),
            Some(vec!["e7".into(), "e8".into(), "e9".into(), "e10".into()])
        );
        assert_eq!(texts(history.missed(6, 10, 4)), None);
    }

    #[test]
    fn the_ring_is_bounded_in_bytes_too() {
        // Each text is 2 or 3 bytes ("e9", "e10"): 8 bytes keep e8, e9, e10 (2+2+3=7)
        // and not e7 too (9).
        let history = history(10, 100, 8);
        assert_eq!(
            texts(history.missed(7, 10, 100)),
            Some(vec!["e8".into(), "e9".into(), "e10".into()])
        );
        assert_eq!(texts(history.missed(6, 10, 100)), None);
        assert_eq!(history.bytes, 7);
    }

    #[test]
    fn an_event_past_the_byte_bound_alone_empties_the_ring() {
        let mut history = History::new(10, 4);
        history.push(1, "e1".into());
        history.push(2, "a long event".into());
        // Past the bound even alone: dropped too, so a client at 1 gets the state, and
        // one at 2 is up to date.
        assert_eq!(texts(history.missed(1, 2, 100)), None);
        assert_eq!(texts(history.missed(2, 2, 100)), Some(vec![]));
        assert_eq!(history.bytes, 0);
    }
}
