//! What the rest of the server holds to reach a room's task (a game's or a tournament's):
//! its bounded command channel. Each kind of room adds its own calls to its
//! `Handle<Command>` (`GameHandle`, `TournamentHandle`).

use std::fmt;

use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::{ConnId, Sink};

/// A room's task has ended (it was unloaded, or the server is stopping). Says which kind
/// of room: "the game is not loaded".
#[derive(Debug, thiserror::Error)]
#[error("the {0} is not loaded")]
pub struct Gone(pub &'static str);

/// A room's id and the sending end of its task's command channel (`C`: its commands).
pub struct Handle<C> {
    id: Uuid,
    tx: mpsc::Sender<C>,
    /// What the room is, for [`Gone`]: "game", "tournament".
    kind: &'static str,
}

impl<C> Clone for Handle<C> {
    fn clone(&self) -> Self {
        Handle {
            id: self.id,
            tx: self.tx.clone(),
            kind: self.kind,
        }
    }
}

impl<C> fmt::Debug for Handle<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handle")
            .field("kind", &self.kind)
            .field("id", &self.id)
            .field("closed", &self.tx.is_closed())
            .finish()
    }
}

impl<C> Handle<C> {
    /// The handle of the `kind` room `id` whose task reads `tx`'s receiver.
    pub(crate) fn new(kind: &'static str, id: Uuid, tx: mpsc::Sender<C>) -> Handle<C> {
        Handle { id, tx, kind }
    }

    #[must_use]
    pub fn id(&self) -> Uuid {
        self.id
    }

    /// Whether the room's task has ended.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Sends `command`, waiting while the channel is full.
    pub async fn send(&self, command: C) -> Result<(), Gone> {
        self.tx.send(command).await.map_err(|_| Gone(self.kind))
    }

    /// Sends the command `make` builds around a reply channel, and waits for the reply.
    pub async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> C) -> Result<T, Gone> {
        let (reply, answer) = oneshot::channel();
        self.send(make(reply)).await?;
        answer.await.map_err(|_| Gone(self.kind))
    }
}

/// The commands every room takes from its sockets: a socket opening (its outgoing queue,
/// its session's player, the last version it saw) and closing. A room's own command type
/// carries them as one variant (`From<SocketCommand>`).
#[derive(Debug)]
pub enum SocketCommand {
    Connect {
        player: Option<Uuid>,
        resume_after: Option<u64>,
        tx: Sink,
        reply: oneshot::Sender<ConnId>,
    },
    Disconnect {
        conn: ConnId,
    },
    /// Several nodes: only these nodes are live; the room's connections of sockets on
    /// any other node are gone with it (docs/scaling.md).
    NodesLive {
        live: std::sync::Arc<std::collections::HashSet<Uuid>>,
    },
}

impl<C: From<SocketCommand>> Handle<C> {
    /// Opens a connection whose messages go on `tx`: the room queues what it missed since
    /// `resume_after` (or the state) before anything else; its number in the room.
    pub async fn connect(
        &self,
        player: Option<Uuid>,
        resume_after: Option<u64>,
        tx: impl Into<Sink>,
    ) -> Result<ConnId, Gone> {
        let tx = tx.into();
        self.ask(|reply| {
            C::from(SocketCommand::Connect {
                player,
                resume_after,
                tx,
                reply,
            })
        })
        .await
    }

    /// Tells the room connection `conn` closed (nothing to do if the room is gone).
    pub async fn disconnect(&self, conn: ConnId) {
        let _ = self.send(C::from(SocketCommand::Disconnect { conn })).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_question_is_answered_and_an_ended_task_says_which_room_is_gone() {
        let (tx, mut rx) = mpsc::channel::<oneshot::Sender<u32>>(1);
        let handle = Handle::new("game", Uuid::nil(), tx);
        let task = tokio::spawn(async move {
            if let Some(reply) = rx.recv().await {
                let _ = reply.send(42);
            }
        });
        assert_eq!(handle.ask(|reply| reply).await.unwrap(), 42);
        task.await.unwrap();
        assert!(handle.is_closed());
        let gone = handle.ask(|reply| reply).await.unwrap_err();
        assert_eq!(gone.to_string(), "the game is not loaded");
    }
}
