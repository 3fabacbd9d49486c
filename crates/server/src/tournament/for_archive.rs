//! The tournaments' answer to what the archive asks of them
//! (`archive::tournament_rounds`): the round and table a game was played at.

use std::future::Future;
use std::pin::Pin;

use uuid::Uuid;

use super::actor::Command;
use super::registry::Tournaments;
use crate::archive::game_file::TournamentRound;
use crate::archive::tournament_rounds::TournamentRounds;

impl TournamentRounds for Tournaments {
    fn round_of(
        &self,
        tournament: Uuid,
        game: Uuid,
    ) -> Pin<Box<dyn Future<Output = Option<TournamentRound>> + Send + '_>> {
        Box::pin(round_of(self, tournament, game))
    }
}

/// The tournament's name and the game's round and table, when the tournament is there.
async fn round_of(
    tournaments: &Tournaments,
    tournament: Uuid,
    game: Uuid,
) -> Option<TournamentRound> {
    let handle = tournaments.get(tournament).await.ok()??;
    let t = handle.ask(|reply| Command::State { reply }).await.ok()?;
    let (round, table) = t.game_table(game)?;
    Some(TournamentRound {
        name: t.settings().name.clone(),
        round,
        board: table,
    })
}
