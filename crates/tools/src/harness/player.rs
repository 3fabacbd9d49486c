//! One seated player of a load run: it follows its game from the events on its socket,
//! answers with random legal moves and decisions, and times each action from the moment it
//! writes the frame to the opponent receiving the `played` event it made.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use omweso_rules::Side;
use rand::rngs::SmallRng;
use rand::Rng;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use super::socket::{
    close, http, quickack, Exit, Sent, Socket, Ws, BOT_STALL, RATE_LIMIT_BACKOFF, STALL,
};
use super::stats::Ctx;
use omweso_protocol::client::{DecideRequest, MoveRequest};
use omweso_protocol::{
    ClientMessage, ErrorCode, Event, Frame, Played, Reply, Request, ServerMessage, Snapshot, Status,
};

/// A frame read as a `played` event in brief: what a player needs to time it and to pick
/// its next move; the laps, the position, the clock and what each start does are skipped.
/// Any other frame fails to read as one (no `d.by`) or has another `t`.
#[derive(serde::Deserialize)]
struct PlayedFrame {
    t: String,
    v: u64,
    d: PlayedBrief,
}

#[derive(serde::Deserialize)]
struct PlayedBrief {
    by: Side,
    #[serde(default)]
    pending: bool,
    #[serde(default)]
    outcome: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    legal: LegalBrief,
}

#[derive(Default, serde::Deserialize)]
struct LegalBrief {
    #[serde(default)]
    s: Option<MovesBrief>,
    #[serde(default)]
    n: Option<MovesBrief>,
}

#[derive(serde::Deserialize)]
struct MovesBrief {
    moves: Vec<String>,
}

/// An action waiting for its `ack` or `error`.
struct Outstanding {
    frame: String,
    id: String,
    /// The version its `played` event will have.
    expected: u64,
    /// When its frame was written.
    sent: Option<Instant>,
}

pub(super) struct Player {
    /// The opponent is the computer: its answers are timed apart from the human games'.
    against_computer: bool,
    /// How long nothing may come while a move is due.
    stall: Duration,
    /// When this player last acted (against the computer: its answer is timed from there).
    last_action: Option<Instant>,
    ctx: Arc<Ctx>,
    sent: Arc<Sent>,
    game_id: String,
    token: String,
    me: Side,
    /// The last event version seen.
    version: u64,
    outstanding: Option<Outstanding>,
    over: bool,
    next_id: u64,
    rng: SmallRng,
    /// The sowing budget the server explores moves under (the move limit at its pace).
    budget: Option<u64>,
    /// When the `ack` of the last action arrived, until its `played` event comes.
    acked: Option<Instant>,
}

impl Player {
    /// `me`'s player in a game just set up, before any event.
    pub(super) fn new(
        ctx: Arc<Ctx>,
        sent: Arc<Sent>,
        game_id: String,
        token: String,
        me: Side,
        against_computer: bool,
        rng: SmallRng,
    ) -> Player {
        Player {
            against_computer,
            // A computer game's answer may queue behind many searches (level 8: about a
            // second each, on as many threads as cores).
            stall: if against_computer { BOT_STALL } else { STALL },
            last_action: None,
            ctx,
            sent,
            game_id,
            token,
            me,
            version: 0,
            outstanding: None,
            over: false,
            next_id: 0,
            rng,
            budget: Some(720),
            acked: None,
        }
    }

    pub(super) async fn run(mut self, socket: Socket, cancel: &CancellationToken) -> Exit {
        let Socket {
            mut ws,
            _counted,
            first,
        } = socket;
        let exit = match self.main(&mut ws, first, cancel).await {
            Ok(exit) | Err(exit) => exit,
        };
        if exit == Exit::Dropped {
            if !cancel.is_cancelled() {
                self.ctx.stats.dropped.fetch_add(1, Ordering::Relaxed);
            }
            return exit;
        }
        if exit == Exit::Stalled {
            self.ctx.stats.stalled.fetch_add(1, Ordering::Relaxed);
        }
        close(&mut ws).await;
        exit
    }

    async fn main(
        &mut self,
        ws: &mut Ws,
        first: Box<Snapshot>,
        cancel: &CancellationToken,
    ) -> Result<Exit, Exit> {
        let tc = first.time_control;
        self.budget = tc
            .move_limit_seconds
            .map(|limit| (limit * tc.sowing_pace).floor() as u64);
        self.snapshot(ws, &first).await?;
        let mut deadline = tokio::time::Instant::now() + self.stall;
        loop {
            if self.over {
                // Only the `end` is still to come.
                deadline = deadline.min(tokio::time::Instant::now() + Duration::from_secs(5));
            }
            let frame = tokio::select! {
                () = cancel.cancelled() => {
                    return Ok(if self.ctx.stop.is_cancelled() { Exit::Stopped } else { Exit::Aborted });
                }
                frame = tokio::time::timeout_at(deadline, ws.next()) => frame,
            };
            if self.ctx.quickack {
                quickack(ws);
            }
            let frame = match frame {
                Ok(frame) => frame,
                Err(_) if self.over => return Ok(Exit::Ended),
                Err(_) => return Ok(Exit::Stalled),
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    deadline = tokio::time::Instant::now() + self.stall;
                    if let Some(exit) = self.on_text(ws, text.as_str(), cancel).await? {
                        return Ok(exit);
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => return Err(Exit::Dropped),
                Some(Ok(_)) => {}
            }
        }
    }

    async fn on_text(
        &mut self,
        ws: &mut Ws,
        text: &str,
        cancel: &CancellationToken,
    ) -> Result<Option<Exit>, Exit> {
        let received = Instant::now();
        // Most frames are `played` events: read those in brief (the full frame buffers
        // every field before it knows the message's type, which made the generator, not
        // the server, the bottleneck of a closed loop).
        if let Ok(played) = serde_json::from_str::<PlayedFrame>(text) {
            if played.t == "played" {
                return self.on_played(ws, played, received, cancel).await;
            }
        }
        let Ok(frame) = serde_json::from_str::<Frame>(text) else {
            self.ctx.stats.error("unreadable_message");
            return Ok(None);
        };
        let stats = &self.ctx.stats;
        let event = match frame.message {
            ServerMessage::Reply(Reply::State(snapshot)) => {
                return self.snapshot(ws, &snapshot).await.map(|()| None);
            }
            ServerMessage::Reply(Reply::Ack(ack)) => {
                if self.is_mine(ack.id.as_ref()) {
                    let sent = self.outstanding.take().and_then(|o| o.sent);
                    if let Some(sent) = sent.filter(|_| !self.against_computer) {
                        stats.ack_latency(sent, received);
                    }
                    self.acked = Some(received);
                }
                return Ok(None);
            }
            ServerMessage::Reply(Reply::Error(error)) => {
                let code = error.code;
                stats.error(code.as_str());
                let mine = match &error.id {
                    Some(id) => self.is_mine(Some(id)),
                    // A refusal the server made before reading the frame (rate limit).
                    None => code == ErrorCode::RateLimited,
                };
                if let (true, Some(o)) = (mine, self.outstanding.take()) {
                    self.sent.forget(o.expected);
                    match code {
                        ErrorCode::RateLimited => {
                            tokio::time::sleep(RATE_LIMIT_BACKOFF).await;
                            if !cancel.is_cancelled() {
                                self.transmit(ws, o).await?;
                            }
                        }
                        ErrorCode::GameOver => self.over = true,
                        _ => {
                            stats.note(format!("refused {}: {text}", o.frame));
                            self.resync(ws).await?;
                        }
                    }
                }
                return Ok(None);
            }
            ServerMessage::Reply(_) => return Ok(None),
            ServerMessage::Event(event) => event,
        };
        let v = frame.v.unwrap_or(0);
        if v <= self.version {
            // Already covered by a snapshot fetched after an error.
            return Ok(None);
        }
        self.version = v;
        match event {
            Event::Played(played) => {
                let Played {
                    by,
                    pending,
                    outcome,
                    legal,
                    ..
                } = played;
                let mine = legal.side(self.me).map(|l| &l.moves[..]);
                return self
                    .played(
                        ws,
                        v,
                        by,
                        pending,
                        outcome.is_some(),
                        mine,
                        received,
                        cancel,
                    )
                    .await;
            }
            Event::Decision { by, options, .. } if by == self.me && !cancel.is_cancelled() => {
                if options.is_empty() {
                    self.resync(ws).await?;
                } else {
                    let choice = options[self.rng.random_range(0..options.len())].clone();
                    self.act(ws, ClientMessage::Decide(DecideRequest { choice }))
                        .await?;
                }
            }
            Event::End { .. } => {
                self.over = true;
                return Ok(Some(Exit::Ended));
            }
            _ => {}
        }
        Ok(None)
    }

    /// A `played` event read in brief.
    async fn on_played(
        &mut self,
        ws: &mut Ws,
        frame: PlayedFrame,
        received: Instant,
        cancel: &CancellationToken,
    ) -> Result<Option<Exit>, Exit> {
        if frame.v <= self.version {
            return Ok(None);
        }
        self.version = frame.v;
        let d = frame.d;
        let mine = match self.me {
            Side::South => d.legal.s.as_ref(),
            Side::North => d.legal.n.as_ref(),
        };
        let mine = mine.map(|l| &l.moves[..]);
        self.played(
            ws,
            frame.v,
            d.by,
            d.pending,
            d.outcome.is_some(),
            mine,
            received,
            cancel,
        )
        .await
    }

    /// The `played` event of version `v`, by `by`: timed when it answers the opponent's
    /// action, and answered with a move of `mine` when it is this player's turn.
    #[allow(clippy::too_many_arguments)]
    async fn played(
        &mut self,
        ws: &mut Ws,
        v: u64,
        by: Side,
        pending: bool,
        ends: bool,
        mine: Option<&[String]>,
        received: Instant,
        cancel: &CancellationToken,
    ) -> Result<Option<Exit>, Exit> {
        let stats = &self.ctx.stats;
        if by == self.me {
            self.outstanding = None;
            if let (Some(at), Some(on_acked)) = (self.acked.take(), &self.ctx.on_acked) {
                on_acked(&self.game_id, v, at);
            }
        } else if self.against_computer {
            if let Some(at) = self.last_action.take() {
                stats.bot_answer(at, received);
            }
        } else {
            match self.sent.take(v) {
                Some(at) => stats.latency(at, received),
                None => {
                    stats.unmatched.fetch_add(1, Ordering::Relaxed);
                }
            }
            if stats.measuring() {
                stats.plays.fetch_add(1, Ordering::Relaxed);
                if !pending {
                    stats.moves.fetch_add(1, Ordering::Relaxed);
                }
            }
            if !pending {
                stats.moves_total.fetch_add(1, Ordering::Relaxed);
            }
        }
        if ends {
            self.over = true;
            return Ok(None);
        }
        if !pending && !cancel.is_cancelled() {
            // The server's list of what we may do: a random start of it (the
            // decision points are answered as the server asks).
            if let Some(mv) = self.pick(mine) {
                self.act(ws, ClientMessage::Move(MoveRequest { mv }))
                    .await?;
            }
        }
        Ok(None)
    }

    /// The start of a random move of `moves` (`None` when there is none).
    fn pick(&mut self, moves: Option<&[String]>) -> Option<String> {
        let moves = moves.filter(|m| !m.is_empty())?;
        let mv = &moves[self.rng.random_range(0..moves.len())];
        Some(
            mv.split_once('/')
                .map_or(mv.as_str(), |(start, _)| start)
                .to_owned(),
        )
    }

    fn is_mine(&self, id: Option<&Value>) -> bool {
        match (&self.outstanding, id.and_then(Value::as_str)) {
            (Some(o), Some(id)) => o.id == id,
            _ => false,
        }
    }

    /// Acts on a snapshot (the `state` on connect, or one fetched after a refusal).
    async fn snapshot(&mut self, ws: &mut Ws, snapshot: &Snapshot) -> Result<(), Exit> {
        self.version = snapshot.version;
        match snapshot.status {
            Status::Playing => {}
            Status::Finished | Status::Annulled => {
                self.over = true;
                return Ok(());
            }
            Status::Setup => return Ok(()),
        }
        if let Some(options) = &snapshot.pending {
            if snapshot.to_move == Some(self.me) && !options.is_empty() {
                let choice = options[self.rng.random_range(0..options.len())].clone();
                return self
                    .act(ws, ClientMessage::Decide(DecideRequest { choice }))
                    .await;
            }
            return Ok(());
        }
        if snapshot.to_move.is_some_and(|side| side != self.me) {
            // The referee's steal is open (a tournament game whose first mover connected
            // late): `legal` lists the thief's moves too, but a player of this generator
            // never steals, so that the two never race for the same turn.
            return Ok(());
        }
        // Mweiso's opening has no single side to move: the server lists both sides then.
        let moves = snapshot.legal.side(self.me).map(|l| &l.moves[..]);
        if let Some(mv) = self.pick(moves) {
            return self.act(ws, ClientMessage::Move(MoveRequest { mv })).await;
        }
        Ok(())
    }

    /// After a refusal: fetch the snapshot over HTTP and act on it.
    async fn resync(&mut self, ws: &mut Ws) -> Result<(), Exit> {
        let path = format!("/api/games/{}", self.game_id);
        let Ok(value) = http(&self.ctx, "GET", &path, Some(&self.token), None).await else {
            return Ok(());
        };
        let Ok(snapshot) = serde_json::from_value::<Snapshot>(value) else {
            return Ok(());
        };
        self.snapshot(ws, &snapshot).await
    }

    async fn act(&mut self, ws: &mut Ws, message: ClientMessage) -> Result<(), Exit> {
        if !self.ctx.think.is_zero() {
            tokio::time::sleep(self.ctx.think).await;
        }
        self.next_id += 1;
        let id = self.next_id.to_string();
        let frame = Request {
            message,
            id: Some(Value::String(id.clone())),
        }
        .to_text();
        let outstanding = Outstanding {
            frame,
            id,
            expected: self.version + 1,
            sent: None,
        };
        self.transmit(ws, outstanding).await
    }

    /// Writes an action's frame, noting when, for the opponent to measure.
    async fn transmit(&mut self, ws: &mut Ws, mut o: Outstanding) -> Result<(), Exit> {
        let now = Instant::now();
        self.sent.put(o.expected, now);
        self.last_action = Some(now);
        o.sent = Some(now);
        let frame = o.frame.clone();
        self.outstanding = Some(o);
        ws.send(Message::Text(frame.into()))
            .await
            .map_err(|_| Exit::Dropped)
    }
}
