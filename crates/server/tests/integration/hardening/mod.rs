//! The server under attack (issue 10): each finding reproduced against a real server on
//! port 0, with a normal game played beside it that must go on: every one of its moves
//! acknowledged and seen by the opponent (common/probe.rs; its latency is printed, not
//! bounded, since a wall-clock bound fails on a loaded machine for reasons not the
//! server's).

mod bodies;
mod connections;
mod creation;
mod edges;
mod expensive;
mod files;
mod finished;
mod pages;
mod sessions;

use crate::common::{Remote, SeatedGame};
use serde_json::json;

/// One attack at a time: the probe's printed latency then speaks of its own attack, not of
/// the others' (the tests of one file run in parallel threads otherwise), and two attacks
/// do not crowd the machine the other suites share.
pub(super) static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A free-setup game with the move limit off, both arrangements made: South to move.
pub(super) async fn free_setup_without_limit(
    server: &Remote,
) -> (String, String, crate::common::Client) {
    let body = json!({"ruleset": "omweso", "setup": "free",
        "time_control": {"move_limit_seconds": null}});
    let SeatedGame {
        id: game,
        south: kato,
        north: nakato,
        ..
    } = SeatedGame::new(server, body).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    south
        .send(json!({"t": "arrange", "id": "s", "d": {"pits": [1,2,2,0,3,1,0,5,1,2,7,1,1,2,1,3]}}))
        .await;
    south.expect_ack("s").await;
    north
        .send(json!({"t": "arrange", "id": "n", "d": {"pits": [3,3,1,2,1,3,0,2,1,3,4,4,1,0,3,1]}}))
        .await;
    north.expect_ack("n").await;
    (game, kato, south)
}

pub(super) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}
