//! The set-ups many tests begin with, written once: two players seated in a new game;
//! two accounts with an archive of finished games.

use serde_json::{json, Value};

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

/// Plays `count` Oware games of two moves (C1, C2) between the accounts `kato_k` (South,
/// who resigns each) and `nakato_n`, the newest last: Kato's archive of finished games,
/// all lost. Returns their tokens, Kato's first.
pub async fn archive_of_games(server: &Remote, count: usize) -> (String, String) {
    let game = SeatedGame::new(server, json!({"ruleset": "oware"})).await;
    let password = "seeds in the outer row at dusk";
    let mut tokens = Vec::new();
    for (token, username) in [(&game.south, "kato_k"), (&game.north, "nakato_n")] {
        let (status, made) = server
            .post(
                "/api/account",
                token,
                json!({"username": username, "password": password}),
            )
            .await;
        assert_eq!(status, 201, "{made}");
        tokens.push(made["token"].as_str().unwrap().to_owned());
    }
    let (kato, nakato) = (tokens[0].clone(), tokens[1].clone());
    let mut id = game.id.clone();
    for n in 0..count {
        if n > 0 {
            id = server
                .create(&kato, json!({"ruleset": "oware", "rated": false}))
                .await;
            server.join(&nakato, &id).await;
        }
        let mut south = server.socket(&id, Some(&kato), None).await;
        let mut north = server.socket(&id, Some(&nakato), None).await;
        south
            .expect_ack_of("s1", json!({"t": "move", "d": {"move": "C1"}}))
            .await;
        north
            .expect_ack_of("n1", json!({"t": "move", "d": {"move": "C2"}}))
            .await;
        south
            .expect_ack_of("r", json!({"t": "resign", "d": {}}))
            .await;
    }
    (kato, nakato)
}
