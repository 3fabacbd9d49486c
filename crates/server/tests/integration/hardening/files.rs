//! Issue 41, findings 1, 10 and 12: game files cost what they say, and no more.
//!
//! - A file of ~29,000 made-up tags cost an engine thread over a second (its duplicate
//!   check was quadratic), on the pool that lists the games' legal moves, first come first
//!   served: a handful of guests took other visitors' analysis from a millisecond to ten
//!   seconds. Now a game has at most 256 tags, the check is linear, and files are read on
//!   threads of their own, in turns by address.
//! - A file of tens of thousands of moves became one JSON value (+96 MB for 256 KiB): now
//!   the answer is written straight from the records, and a file of more moves than the
//!   analysis board reads is refused.
//! - 32 exports of 5,000 games held both cores for 72 s, and clients that read nothing
//!   held their exports open: now an address streams one export at a time, and a
//!   connection whose client reads nothing of its answer for `http_write_stall_seconds` is
//!   closed, giving its export's place back.

use serde_json::{json, Value};

use super::ONE_AT_A_TIME;
use crate::common::fixtures::archive_of_games;
use crate::common::probe::LatencyProbe;
use crate::common::{config_with, Remote, TestServer};

/// `count` made-up tags, `[Taaa ""]`, `[Taab ""]`, ...
fn made_up_tags(count: usize) -> String {
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    (0..count)
        .map(|i| {
            let name: String = [i / 676 % 26, i / 26 % 26, i % 26]
                .iter()
                .map(|&k| char::from(letters[k]))
                .collect();
            format!("[T{name} \"\"]\n")
        })
        .collect()
}

/// The worst file the analysis board used to choke on: 170 KiB of made-up tags (the JSON
/// body that carries it, its quotes escaped, within the route's 256 KiB).
fn tag_bomb() -> String {
    let mut text = made_up_tags(29_000);
    text.truncate(170 * 1024);
    let cut = text.rfind('\n').unwrap_or(0);
    text.truncate(cut + 1);
    text
}

async fn read_game(server: &Remote, token: &str, text: &str) -> (u16, Value) {
    server
        .post("/api/analysis/read-game", token, json!({ "text": text }))
        .await
}

#[tokio::test]
async fn a_file_of_made_up_tags_is_refused_at_once_and_others_read_beside_a_flood_of_them() {
    let _one = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (status, answer) = read_game(&server, &server.session("Apio").await.0, &tag_bomb()).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "the game file, line 257, column 1: a game has at most 256 tag pairs"
    );
    // Four guests send the file again and again while a fifth reads an ordinary one:
    // every bomb is refused 400 (or 429/503 when its address's turn is full), and the
    // ordinary file is read every time.
    let bomb = tag_bomb();
    let mut flood = Vec::new();
    for i in 0..4 {
        let server = Remote::new(server.addr);
        let (token, _) = server.session(&format!("Guest {i}")).await;
        let bomb = bomb.clone();
        flood.push(tokio::spawn(async move {
            let mut answered = Vec::new();
            for _ in 0..8 {
                answered.push(read_game(&server, &token, &bomb).await.0);
            }
            answered
        }));
    }
    let (visitor, _) = server.session("Visitor").await;
    let ordinary = "[Ruleset \"oware\"]\n[Result \"*\"]\n\n1. C1 C2 *\n";
    for _ in 0..8 {
        let (status, answer) = read_game(&server, &visitor, ordinary).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["games"][0]["record"]["moves"][1]["move"], "C2");
    }
    for answered in flood {
        for status in answered.await.unwrap() {
            assert!([400, 429, 503].contains(&status), "{status}");
        }
    }
    probe
        .finish_when_enough("a flood of files of made-up tags")
        .await;
    server.stop().await;
}

#[tokio::test]
async fn a_file_of_more_moves_than_the_board_reads_is_refused_and_the_answer_keeps_its_shape() {
    let server = TestServer::start("sqlite::memory:").await;
    let (token, _) = server.session("Apio").await;
    // 50,001 moves of one game (they need not be legal: the count is checked first).
    let text = format!(
        "[Ruleset \"oware\"]\n[Result \"*\"]\n\n{}*\n",
        "A1 ".repeat(50_001)
    );
    let (status, answer) = read_game(&server, &token, &text).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "the game file holds 50001 moves; the analysis board reads at most 50000 from one file"
    );
    // A game whose moves do not replay answers its record and the error, as before.
    let text = "[Ruleset \"oware\"]\n[Result \"*\"]\n\n1. C1 C1 *\n";
    let (status, answer) = read_game(&server, &token, text).await;
    assert_eq!(status, 200, "{answer}");
    let game = &answer["games"][0];
    assert_eq!(
        game.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["error", "record"]
    );
    assert_eq!(game["record"]["moves"].as_array().unwrap().len(), 2);
    server.stop().await;
}

/// An export holds its address's place while it streams and gives it back when it ends
/// (`archive::export::Streaming`'s unit tests hold one open; a download nobody reads is
/// cut by `http::write_stall`, whose unit test drives a client that never reads): one
/// export after another from an address each streams whole; with no place for an
/// address, the refusal says why.
#[tokio::test]
async fn an_address_streams_one_export_at_a_time() {
    let server = TestServer::start_with(config_with(|limits| {
        limits.exports_at_once_per_ip = 1;
    }))
    .await;
    archive_of_games(&server, 3).await;
    let username = "kato_k";
    let (visitor, _) = server.session("Visitor").await;
    let path = format!("/api/players/{username}/games/export");
    for _ in 0..3 {
        let (status, text) = server.get_text(&path, &visitor).await;
        assert_eq!(status, 200, "{text}");
        assert_eq!(text.matches("[Result \"0-1\"]").count(), 3, "{text}");
    }
    server.stop().await;

    let server = TestServer::start_with(config_with(|limits| {
        limits.exports_at_once_per_ip = 0;
    }))
    .await;
    archive_of_games(&server, 1).await;
    let username = "kato_k";
    let (visitor, _) = server.session("Visitor").await;
    let (status, answer) = server
        .get(&format!("/api/players/{username}/games/export"), &visitor)
        .await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "0 exports from your address are still downloading; wait for them to finish"
    );
    server.stop().await;
}

/// `--exports-per-ip-per-minute`: an address's game-file exports a minute, whatever its
/// sessions; the next is refused 429 `rate_limited`, saying so, and another address is
/// not held back.
#[tokio::test]
async fn an_address_exports_only_so_many_game_files_a_minute() {
    let server = TestServer::start_with(config_with(|l| {
        l.exports_per_ip_per_minute = 2;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let seated = crate::common::SeatedGame::new(&server, json!({"ruleset": "oware"})).await;
    let path = format!("/api/games/{}/export?format=ogn", seated.id);
    for token in [&seated.south, &seated.north] {
        let (status, text) = server.get_text_from(&path, token, "198.51.100.7").await;
        assert_eq!(status, 200, "{text}");
        assert!(text.contains("[Ruleset \"oware\"]"), "{text}");
    }
    let (visitor, _) = server.session("Visitor").await;
    let (status, text) = server.get_text_from(&path, &visitor, "198.51.100.7").await;
    assert_eq!(status, 429, "{text}");
    let refused: Value = serde_json::from_str(&text).expect("a JSON refusal");
    assert_eq!(refused["error"]["code"], "rate_limited");
    assert_eq!(
        refused["error"]["message"],
        "2 exports from your address in the last minute; wait a little"
    );
    let (status, text) = server.get_text_from(&path, &visitor, "198.51.100.8").await;
    assert_eq!(status, 200, "another address: {text}");
    server.stop().await;
}

/// A player's export asked for compressed, as every browser asks (`gzip`, or Chromium's
/// `gzip, deflate, br, zstd`), comes whole: the same games as uncompressed, every one.
/// The attack re-run of issue 41 found it cut after the first games (the streamed body
/// was polled again after its end, a panic in the export's task, `curl` exit 18): every
/// download of a player's or a tournament's games from a browser failed.
#[tokio::test]
async fn an_export_asked_for_compressed_comes_whole() {
    use std::io::Read;
    let server = TestServer::start("sqlite::memory:").await;
    let (kato, _) = archive_of_games(&server, 3).await;
    let path = "/api/players/kato_k/games/export?format=ndjson";
    let whole = |encoding: &'static str| {
        let server = &server;
        let kato = kato.clone();
        async move {
            let response = server
                .http
                .get(server.url(path))
                .bearer_auth(&kato)
                .header("accept-encoding", encoding)
                .send()
                .await
                .expect("an answer");
            assert_eq!(response.status(), 200, "{encoding}");
            let coded = response
                .headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap_or("").to_owned());
            let body = response.bytes().await.expect("the whole body").to_vec();
            (coded, body)
        }
    };
    let (coded, plain) = whole("identity").await;
    assert_eq!(coded, None);
    let plain = String::from_utf8(plain).expect("text");
    assert_eq!(plain.lines().count(), 3, "{plain}");
    let (coded, gzipped) = whole("gzip").await;
    assert_eq!(coded.as_deref(), Some("gzip"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gzipped[..])
        .read_to_string(&mut text)
        .expect("a whole gzip stream");
    assert_eq!(text, plain);
    let (coded, _) = whole("gzip, deflate, br, zstd").await;
    assert_eq!(coded.as_deref(), Some("br"));
    server.stop().await;
}
