//! The set-ups many tests begin with, written once: two players seated in a new game.

use serde_json::Value;

use super::{Client, Remote};

/// Kato, who creates a game, and Nakato, who joins it: two new sessions seated in a new
/// game of `body` (the creator South, as a game created without `seat` seats them).
pub struct SeatedGame {
    pub id: String,
    /// Kato's token: the creator, South.
    pub south: String,
    /// Nakato's token: the joiner, North.
    pub north: String,
}

impl SeatedGame {
    /// Creates the game as Kato and joins it as Nakato, who must be given North.
    pub async fn new(server: &Remote, body: Value) -> SeatedGame {
        let (south, _) = server.session("Kato").await;
        let (north, _) = server.session("Nakato").await;
        let id = server.create(&south, body).await;
        assert_eq!(server.join(&north, &id).await, "n", "the joiner sits North");
        SeatedGame { id, south, north }
    }

    /// Both players' sockets on the game, South's first.
    pub async fn sockets(&self, server: &Remote) -> [Client; 2] {
        [
            server.socket(&self.id, Some(&self.south), None).await,
            server.socket(&self.id, Some(&self.north), None).await,
        ]
    }
}
