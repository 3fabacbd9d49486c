//! What a game's task keeps of its seats' ratings between reads (`ratings.rs` reads and
//! shows them): apart from the task, whose state holds it.

use omweso_protocol::ratings::RatingBadge;
use uuid::Uuid;

/// The seats' ratings as last read.
#[derive(Clone, Debug, Default)]
pub(super) struct SeatRatings {
    /// The seats' persons they were read for, and whether after the game's end.
    pub(super) read_for: Option<([Option<Uuid>; 2], bool)>,
    pub(super) badges: [Option<RatingBadge>; 2],
    pub(super) changes: [Option<i32>; 2],
    /// When they were last read (a rated game over reads them again when asked, at most
    /// once every [`READ_AGAIN_AFTER`]).
    pub(super) read_at: Option<tokio::time::Instant>,
}

/// How long a rated game over shows what it read before an ask reads it again: a
/// correction elsewhere shows within this, and sockets opened in a loop on a finished
/// game cost a read of the store this often at most, not each.
pub(super) const READ_AGAIN_AFTER: std::time::Duration = std::time::Duration::from_secs(2);
