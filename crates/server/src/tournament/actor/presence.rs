//! Who of the tournament is here: its sockets' players (counted per player, a player may
//! have several open) and the players at their games in play.

use uuid::Uuid;

use super::Actor;
use crate::room::ConnId;

impl Actor {
    /// A socket opens: its player counted here, then sent what it missed (or the state),
    /// who is here and the boards.
    pub(super) fn connect(
        &mut self,
        player: Option<Uuid>,
        resume_after: Option<u64>,
        tx: crate::room::Sink,
    ) -> ConnId {
        if let Some(player) = player {
            *self.socket_players.entry(player).or_default() += 1;
            self.presence_dirty = true;
        }
        self.catch_up(&tx, player, resume_after);
        self.room.connections.add(tx, player)
    }

    /// A socket closed.
    pub(super) fn remove_conn(&mut self, id: ConnId) {
        if let Some(player) = self.room.connections.remove(id) {
            self.left(player);
        }
    }

    /// A socket is gone (closed, or dropped for being slow): its player is no longer
    /// counted here.
    pub(super) fn left(&mut self, player: Option<Uuid>) {
        let Some(player) = player else {
            return;
        };
        if let Some(open) = self.socket_players.get_mut(&player) {
            *open -= 1;
            if *open == 0 {
                self.socket_players.remove(&player);
            }
        }
        self.presence_dirty = true;
    }

    /// Who of the tournament is here, sorted: the director, the co-directors and the
    /// players with the tournament's socket open, and the players connected to their game,
    /// in play or over (as that game last told: see `game::news`).
    pub(super) fn presence(&self) -> Vec<Uuid> {
        let mut here: Vec<Uuid> = self
            .socket_players
            .keys()
            .copied()
            .filter(|&player| self.t.is_member(player))
            .collect();
        for (&game_id, &at_game) in &self.at_games {
            let Some(seated) = self.t.seated_in(game_id) else {
                continue;
            };
            for (player, present) in seated.into_iter().zip(at_game) {
                if present {
                    here.push(player);
                }
            }
        }
        here.sort_unstable();
        here.dedup();
        here
    }
}
