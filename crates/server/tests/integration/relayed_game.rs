//! A relayed game (docs/rules.md#57-over-the-board-play-and-relays) through its task, a
//! real store (`sqlite::memory:`), the writer and the engine pool: the relay's entries and
//! undos answered with the version after them once saved, heard by a watcher (the
//! tournament's mini-boards) and by a socket resuming with `?v=`, refused to a seated
//! player's own socket, and the same after a restart, undos included.

use std::time::Duration;

use omweso_protocol::client::MoveRequest;
use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_protocol::{ClientMessage, ErrorCode, Status};
use omweso_rules::{Ruleset, Side};
use omweso_server::game::actor::{Command, GameHandle, Services};
use omweso_server::game::computer::ComputerServices;
use omweso_server::game::news::TableNews;
use omweso_server::game::registry::{Registry, SeatedGame};
use omweso_server::game::table::{RelayAction, Seat};
use omweso_server::lobby::games::Lobby;
use omweso_server::pools::engine::EnginePool;
use omweso_server::pools::search::SearchPool;
use omweso_server::room::Outgoing;
use omweso_server::store::{Store, Writer};
use tokio::sync::{mpsc, watch};
use tokio::time::timeout;
use uuid::Uuid;

const PATIENCE: Duration = Duration::from_secs(10);

/// The start of Omweso's outer preset.
const OUTER: &str = "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s";

/// A registry over `store`, as the server builds one.
fn registry(store: &Store) -> (Registry, watch::Sender<bool>) {
    let (writer, _task) = Writer::spawn(store.clone(), 64);
    let (stop, shutdown) = watch::channel(false);
    let services = Services {
        writer,
        shutdown,
        pool: EnginePool::start(1).expect("an engine thread"),
        lobby: Lobby::default(),
        open_game_ttl_ms: 3_600_000,
        computer: ComputerServices {
            pool: SearchPool::start(1).expect("a search thread"),
            delay: Duration::ZERO,
        },
        computer_no_show_ms: 60_000,
        store: store.clone(),
        cluster: None,
        finished_linger: std::time::Duration::ZERO,
    };
    (Registry::new(store.clone(), services), stop)
}

fn seat(name: &str) -> Seat {
    Seat {
        player: Uuid::new_v4(),
        name: name.into(),
    }
}

/// A tournament table's game (the tournament preset's clocks), relayed or not.
fn pairing(relayed: bool) -> SeatedGame {
    SeatedGame {
        id: Uuid::new_v4(),
        config: GameConfig {
            ruleset: Ruleset::Omweso,
            setup: SetupKind::Outer,
            time_control: TimeControl::TOURNAMENT,
            stop_at_ms: None,
            relayed,
            rated: false,
            tournament: None,
        },
        first: seat("Kato"),
        second: seat("Nakato"),
    }
}

/// The news of `version` (news of a player coming or going repeats a version).
async fn news_of(rx: &mut mpsc::Receiver<TableNews>, version: u64) -> TableNews {
    loop {
        let news = timeout(PATIENCE, rx.recv())
            .await
            .expect("news in time")
            .expect("the game still sends news");
        if news.version >= version {
            assert_eq!(news.version, version, "no news was skipped");
            return news;
        }
    }
}

/// The next text frame a socket is sent whose type is `t`.
async fn frame(rx: &mut mpsc::Receiver<Outgoing>, t: &str) -> serde_json::Value {
    loop {
        let out = timeout(PATIENCE, rx.recv())
            .await
            .expect("a frame in time")
            .expect("the socket is open");
        if let Outgoing::Text(text) = out {
            let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
            if value["t"] == t {
                return value;
            }
        }
    }
}

async fn relay(game: &GameHandle, action: RelayAction) -> Result<u64, (ErrorCode, String)> {
    game.relay(action)
        .await
        .expect("the game is running")
        .map_err(|refusal| (refusal.code, refusal.message))
}

fn mv(notation: &str) -> RelayAction {
    RelayAction::Move {
        notation: notation.into(),
    }
}

#[tokio::test]
async fn a_relay_enters_and_takes_back_moves_that_everyone_hears_and_a_restart_keeps() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let (games, stop) = registry(&store);
    let table = pairing(true);
    let game = games
        .create_seated(vec![table.clone()], vec![])
        .await
        .unwrap()
        .remove(0);
    let (tx, mut news) = mpsc::channel(16);
    assert_eq!(game.watch(tx).await.unwrap().version, 2);

    // Kato opens the game page: it watches; a move from it is refused in words.
    let (ptx, mut kato) = mpsc::channel(128);
    let conn = game
        .connect(Some(table.first.player), None, ptx)
        .await
        .unwrap();
    let state = frame(&mut kato, "state").await;
    assert_eq!(state["d"]["relayed"], true);
    assert_eq!(
        state["d"]["clock"]["referee_deadline"],
        serde_json::Value::Null
    );
    assert_eq!(
        state["d"]["time_control"]["referee_seconds"],
        serde_json::Value::Null
    );
    let message = ClientMessage::Move(MoveRequest { mv: "E1".into() });
    game.send(Command::Client {
        conn,
        id: Some("m1".into()),
        message,
    })
    .await
    .unwrap();
    let refused = frame(&mut kato, "error").await;
    assert_eq!(refused["d"]["code"], "relayed_game");
    assert_eq!(
        refused["d"]["message"],
        "this game is played on a wooden board: its moves are entered by the table's relay, not from here"
    );

    // The relay's entries: answered with the version after them, saved, heard.
    assert_eq!(relay(&game, mv("E1")).await, Ok(3));
    let heard = news_of(&mut news, 3).await;
    assert_eq!(heard.last_move.as_deref(), Some("E1"));
    assert_eq!(heard.to_move, Some(Side::North));
    let after_e1 = heard.position.clone();
    assert_eq!(relay(&game, mv("A4")).await, Ok(4));
    assert_eq!(news_of(&mut news, 4).await.last_move.as_deref(), Some("A4"));
    let kinds: Vec<_> = store
        .actions(table.id)
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.kind)
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| *k == "relay").count(),
        2,
        "{kinds:?}"
    );

    // A page that saw version 3 comes back after the undo: it is sent what it missed.
    assert_eq!(relay(&game, RelayAction::Undo).await, Ok(5));
    let heard = news_of(&mut news, 5).await;
    assert_eq!(
        (heard.position.clone(), heard.to_move),
        (after_e1.clone(), Some(Side::North))
    );
    assert_eq!(heard.last_move.as_deref(), Some("E1"));
    assert_eq!(heard.status, Status::Playing);
    let (stx, mut resumed) = mpsc::channel(128);
    game.connect(None, Some(3), stx).await.unwrap();
    let played = frame(&mut resumed, "played").await;
    assert_eq!(played["v"], 4);
    let undone = frame(&mut resumed, "undone").await;
    assert_eq!(undone["v"], 5);
    assert_eq!(undone["d"]["moves"], 1);
    assert_eq!(undone["d"]["to_move"], "n");
    assert_eq!(undone["d"]["position"].as_str(), after_e1.as_deref());
    assert!(undone["d"]["legal"]["n"]["moves"]
        .as_array()
        .is_some_and(|m| !m.is_empty()));

    assert_eq!(relay(&game, RelayAction::Undo).await, Ok(6));
    assert_eq!(news_of(&mut news, 6).await.position.as_deref(), Some(OUTER));
    let nothing = relay(&game, RelayAction::Undo).await.unwrap_err();
    assert_eq!(nothing.0, ErrorCode::NothingToUndo);
    assert_eq!(relay(&game, mv("E1")).await, Ok(7));

    // A new server, the same store: the game comes back with its version, and the
    // relay's entry can still be taken back.
    drop((game, games, kato, resumed));
    let _ = stop.send(true);
    let (games, _stop) = registry(&store);
    let game = games.get(table.id).await.unwrap().expect("the game");
    let snapshot = game.snapshot(None).await.unwrap();
    assert_eq!((snapshot.version, snapshot.relayed), (7, true));
    assert_eq!(snapshot.position, after_e1);
    assert_eq!(relay(&game, RelayAction::Undo).await, Ok(8));
    let snapshot = game.snapshot(None).await.unwrap();
    assert_eq!(snapshot.position.as_deref(), Some(OUTER));
    assert!(snapshot.history.is_empty());
}

#[tokio::test]
async fn a_game_played_online_takes_no_relay() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let (games, _stop) = registry(&store);
    let game = games
        .create_seated(vec![pairing(false)], vec![])
        .await
        .unwrap()
        .remove(0);
    let refused = relay(&game, mv("E1")).await.unwrap_err();
    assert_eq!(refused.0, ErrorCode::NotRelayed);
    assert_eq!(game.snapshot(None).await.unwrap().version, 2);
}
