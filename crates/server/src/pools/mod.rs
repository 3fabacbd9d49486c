//! The threads that keep heavy work off the async workers that carry the sockets:
//! [`engine`] (legal-move listings, replays), [`search`] (the computer player), and
//! [`fair`] (threads served from a [`fair_queue`]: round-robin between addresses, then
//! sessions, so that one player's flood waits behind everyone else's one job).

pub mod engine;
pub mod fair;
pub mod fair_queue;
pub mod fair_turns;
pub mod fair_work;
pub mod search;
