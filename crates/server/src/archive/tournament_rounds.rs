//! What the archive asks of the tournaments, declared here and answered by them
//! (`tournament::for_archive`), so that the archive names no concern above it: the
//! tournament round and table a stored game was played at, for its game file's header.

use std::future::Future;
use std::pin::Pin;

use uuid::Uuid;

use super::game_file::TournamentRound;

/// The tournaments, as the archive sees them.
pub trait TournamentRounds: Send + Sync {
    /// Tournament `tournament`'s name and the round and table of its game `game`, when the
    /// tournament is there and created that game.
    fn round_of(
        &self,
        tournament: Uuid,
        game: Uuid,
    ) -> Pin<Box<dyn Future<Output = Option<TournamentRound>> + Send + '_>>;
}
