//! Where a player is now: what a device a director linked for them opens first
//! (docs/accounts.md, "A player who lost their device"), decided when the code is used,
//! since the round may have moved on since the code was made.

use uuid::Uuid;

use omweso_protocol::over_the_board::PlayedAt;
use omweso_protocol::tournament::RoundStatus;

use super::Tournament;

/// A player's place in the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Their game of round `round`, table `table`, being played online.
    Game { game: Uuid, round: u32, table: u32 },
    /// Their table at a wooden board, whose sheet is not made yet.
    Sheet { round: u32, table: u32 },
    /// Between rounds, their game over, a bye, or not in the round: the tournament's page.
    Tournament,
}

impl Tournament {
    /// Where `player` is now: at their table of the round being played, if its result is
    /// still to come; else the tournament's page.
    #[must_use]
    pub fn place_of(&self, player: Uuid) -> Place {
        let (Some(index), Some(round)) = (self.player_index(player), self.rounds.last()) else {
            return Place::Tournament;
        };
        if round.status() != RoundStatus::Playing {
            return Place::Tournament;
        }
        let Some(table) = round
            .tables
            .iter()
            .find(|t| t.first == index || t.second == Some(index))
        else {
            return Place::Tournament;
        };
        let Some(game) = table.game.as_ref().filter(|g| g.sheet.is_none()) else {
            return Place::Tournament;
        };
        match table.played_at {
            PlayedAt::Board => Place::Sheet {
                round: round.number,
                table: table.number,
            },
            PlayedAt::Online => Place::Game {
                game: game.game_id,
                round: round.number,
                table: table.number,
            },
        }
    }
}
