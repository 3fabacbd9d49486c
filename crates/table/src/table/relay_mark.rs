//! What the table was before one of a relay's entries, to take it back: a part of the
//! table's state, apart from the job that carries out the relay's entries (`relay`).

use omweso_protocol::{Impasse, Status};
use omweso_rules::{Arrangement, Game, Outcome, Side};

use super::clock::Clock;
use super::pending::PendingTurn;
use super::tally::Tally;

/// The table as it was before one relay entry: everything an entry changes. Seats, the
/// version, who is connected and the referee's round trips are not an entry's and stay
/// as they are when it is taken back.
#[derive(Clone, Debug)]
pub(super) struct RelayMark {
    pub(super) status: Status,
    pub(super) board: Option<Game>,
    pub(super) arrangements: [Option<Arrangement>; 2],
    pub(super) pending: Option<PendingTurn>,
    pub(super) history_len: usize,
    pub(super) outcome: Option<Outcome>,
    pub(super) tally: Tally,
    pub(super) impasse: Option<Impasse>,
    pub(super) impasse_declined: Option<Side>,
    pub(super) clock: Clock,
}
