//! The hooks a tournament uses on its games, through a real store (`sqlite::memory:`), the
//! writer and the engine pool: games created seated in one transaction, watched move by
//! move, and adjudicated at the round's deadline.

use std::time::Duration;

use omweso_protocol::client::MoveRequest;
use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_protocol::{ClientMessage, ErrorCode, Snapshot, Status};
use omweso_rules::{Outcome, Ruleset, Side, Victory};
use omweso_server::game::actor::{Command, GameHandle, Services};
use omweso_server::game::computer::ComputerServices;
use omweso_server::game::news::TableNews;
use omweso_server::game::registry::{LoadError, Registry, SeatedGame};
use omweso_server::game::table::Seat;
use omweso_server::lobby::games::Lobby;
use omweso_server::pools::engine::EnginePool;
use omweso_server::pools::search::SearchPool;
use omweso_server::room::{ConnId, Outgoing};
use omweso_server::store::{SessionRow, Store, Write, Writer};
use tokio::sync::{mpsc, watch};
use tokio::time::timeout;
use uuid::Uuid;

/// How long a test waits for something the game's task does at once.
const PATIENCE: Duration = Duration::from_secs(10);

/// The start of Omweso's outer preset.
const OUTER: &str = "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s";

/// A registry over `store`, as the server builds one. The sender keeps the games running
/// (they stop when it says so, or is dropped).
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
            delay: std::time::Duration::ZERO,
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

fn pairing(ruleset: Ruleset) -> SeatedGame {
    SeatedGame {
        id: Uuid::new_v4(),
        config: GameConfig {
            ruleset,
            setup: SetupKind::Outer,
            time_control: TimeControl::CASUAL,
            stop_at_ms: None,
            relayed: false,
            rated: false,
            tournament: None,
        },
        first: seat("Kato"),
        second: seat("Nakato"),
    }
}

/// A write of the caller's own, committed with the games (a tournament's log entry).
fn extra(player_id: Uuid) -> Write {
    Write::InsertSession(SessionRow {
        player_id,
        device_id: Uuid::new_v4(),
        token_hash: format!("hash-{player_id}"),
        name: "director".into(),
        username: None,
        label: String::new(),
        created_at_ms: 0,
        last_seen_ms: 0,
        used: false,
        tournament_id: None,
    })
}

/// One game of `ruleset` created seated (its pairing, and the running game).
async fn one_seated(games: &Registry, ruleset: Ruleset) -> (SeatedGame, GameHandle) {
    let pairing = pairing(ruleset);
    let game = games
        .create_seated(vec![pairing.clone()], vec![])
        .await
        .unwrap()
        .remove(0);
    (pairing, game)
}

async fn next(rx: &mut mpsc::Receiver<TableNews>) -> TableNews {
    timeout(PATIENCE, rx.recv())
        .await
        .expect("news in time")
        .expect("the game still sends news")
}

/// A player's socket: its connection and its outgoing queue (kept open, so that the
/// player stays connected).
struct Player {
    conn: ConnId,
    _rx: mpsc::Receiver<Outgoing>,
}

async fn connect(game: &GameHandle, player: &Seat) -> Player {
    let (tx, rx) = mpsc::channel(128);
    let conn = game.connect(Some(player.player), None, tx).await.unwrap();
    Player { conn, _rx: rx }
}

async fn play(game: &GameHandle, player: &Player, notation: &str) {
    let message = ClientMessage::Move(MoveRequest {
        mv: notation.into(),
    });
    let command = Command::Client {
        conn: player.conn,
        id: None,
        message,
    };
    game.send(command).await.unwrap();
}

#[tokio::test]
async fn a_round_is_created_seated_in_one_transaction_and_reloads_from_the_store() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let (games, stop) = registry(&store);
    let (omweso, oware) = (pairing(Ruleset::Omweso), pairing(Ruleset::Oware));
    let director = Uuid::new_v4();
    let handles = games
        .create_seated(vec![omweso.clone(), oware.clone()], vec![extra(director)])
        .await
        .unwrap();
    assert_eq!(
        handles.iter().map(GameHandle::id).collect::<Vec<_>>(),
        [omweso.id, oware.id]
    );
    for (handle, pairing) in handles.iter().zip([&omweso, &oware]) {
        let snapshot = handle.snapshot(Some(pairing.first.player)).await.unwrap();
        assert_eq!(snapshot.status, Status::Playing);
        assert_eq!(snapshot.you, Some(Side::South));
        assert_eq!(snapshot.to_move, Some(Side::South));
        assert_eq!(snapshot.seats.s.map(|s| s.name).as_deref(), Some("Kato"));
        assert_eq!(snapshot.seats.n.map(|s| s.name).as_deref(), Some("Nakato"));
        // joined, started
        assert_eq!(snapshot.version, 2);
        let row = store.game(pairing.id).await.unwrap().expect("the row");
        assert_eq!(row.south, Some(pairing.first.player));
        assert_eq!(row.north, Some(pairing.second.player));
        assert_eq!(row.status, "playing");
        let log = store.actions(pairing.id).await.unwrap();
        let kinds: Vec<_> = log.iter().map(|a| (a.seq, a.kind.as_str())).collect();
        assert_eq!(kinds, [(0, "create"), (1, "join")]);
    }
    assert_eq!(
        handles[0].snapshot(None).await.unwrap().position.as_deref(),
        Some(OUTER)
    );
    let hash = format!("hash-{director}");
    assert!(store.session_by_token_hash(&hash).await.unwrap().is_some());

    // The next entry of the log is seq 2: a move is saved after the two.
    let south = connect(&handles[0], &omweso.first).await;
    let (tx, mut news) = mpsc::channel(8);
    handles[0].watch(tx).await.unwrap();
    play(&handles[0], &south, "D1").await;
    assert_eq!(next(&mut news).await.version, 3);

    // A new server, the same store: the games come back from their logs.
    drop((handles, south, games));
    let _ = stop.send(true);
    let (games, _stop) = registry(&store);
    let reloaded = games.get(omweso.id).await.unwrap().expect("the game");
    let snapshot = reloaded.snapshot(None).await.unwrap();
    assert_eq!(snapshot.status, Status::Playing);
    assert_eq!(snapshot.version, 3);
    assert_eq!(snapshot.history.len(), 1);
    assert_eq!(snapshot.seats.n.map(|s| s.name).as_deref(), Some("Nakato"));
    let oware_again = games.get(oware.id).await.unwrap().expect("the game");
    let snapshot = oware_again
        .snapshot(Some(oware.second.player))
        .await
        .unwrap();
    assert_eq!((snapshot.version, snapshot.you), (2, Some(Side::North)));
}

#[tokio::test]
async fn a_round_the_store_refuses_writes_nothing() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let (games, _stop) = registry(&store);
    let taken = pairing(Ruleset::Omweso);
    games
        .create_seated(vec![taken.clone()], vec![])
        .await
        .unwrap();

    // A game id already taken fails the whole transaction: the other game and the
    // caller's own write are not there.
    let fresh = pairing(Ruleset::Mweiso);
    let director = Uuid::new_v4();
    let refused = games
        .create_seated(vec![fresh.clone(), taken.clone()], vec![extra(director)])
        .await;
    assert!(matches!(refused, Err(LoadError::Store(_))), "{refused:?}");
    assert!(store.game(fresh.id).await.unwrap().is_none());
    assert!(store.actions(fresh.id).await.unwrap().is_empty());
    let hash = format!("hash-{director}");
    assert!(store.session_by_token_hash(&hash).await.unwrap().is_none());
    assert!(games.loaded(fresh.id).is_none());

    // A player cannot be paired with themselves: refused before anything is written.
    let mut alone = pairing(Ruleset::Oware);
    alone.second = alone.first.clone();
    let refused = games
        .create_seated(vec![alone.clone()], vec![extra(director)])
        .await;
    assert!(
        matches!(refused, Err(LoadError::Seat { .. })),
        "{refused:?}"
    );
    assert!(store.game(alone.id).await.unwrap().is_none());
    assert!(store.session_by_token_hash(&hash).await.unwrap().is_none());
}

#[tokio::test]
async fn a_watcher_hears_every_move_with_its_version_position_and_notation() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let (games, _stop) = registry(&store);
    let (pairing, game) = one_seated(&games, Ruleset::Omweso).await;
    let (tx, mut news) = mpsc::channel(16);
    let now = game.watch(tx).await.unwrap();
    assert_eq!(now.game_id, pairing.id);
    assert_eq!((now.version, now.status), (2, Status::Playing));
    assert_eq!(now.position.as_deref(), Some(OUTER));
    assert_eq!((now.to_move, now.last_move), (Some(Side::South), None));
    assert_eq!(now.facts.seeds_on_side, [32, 32]);
    assert!(now.facts.started_at_ms.is_some());
    // A second watcher hears the same.
    let (tx, mut second) = mpsc::channel(16);
    game.watch(tx).await.unwrap();

    // A seated player coming is news too (a tournament shows who is here), without a
    // new version.
    assert_eq!(now.present, [false, false]);
    let south = connect(&game, &pairing.first).await;
    let heard = next(&mut news).await;
    assert_eq!((heard.version, heard.present), (2, [true, false]));
    let north = connect(&game, &pairing.second).await;
    let heard = next(&mut news).await;
    assert_eq!((heard.version, heard.present), (2, [true, true]));
    for _ in 0..2 {
        next(&mut second).await;
    }
    let moves = [(&south, "D1"), (&north, "F4"), (&south, "A1")];
    for (version, (player, notation)) in (3..).zip(moves) {
        play(&game, player, notation).await;
        let heard = next(&mut news).await;
        let snapshot = game.snapshot(None).await.unwrap();
        assert_eq!(heard.version, version);
        assert_eq!(heard.version, snapshot.version);
        assert_eq!(heard.position, snapshot.position);
        assert_eq!(heard.to_move, snapshot.to_move);
        assert_eq!(heard.clock, snapshot.clock);
        assert_eq!(heard.last_move.as_deref(), Some(notation));
        assert_eq!(next(&mut second).await, heard);
    }
    let last = game.watch(mpsc::channel(1).0).await.unwrap();
    // South's A1 captured 6 seeds.
    assert_eq!(last.facts.captured, [6, 0]);
    assert_eq!(last.facts.turns, [2, 1]);
    assert_eq!(last.facts.seeds_on_side, [38, 26]);
    assert_eq!(last.to_move, Some(Side::North));
}

#[tokio::test]
async fn adjudication_ends_a_running_game_and_its_watchers_hear_the_end() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let (games, _stop) = registry(&store);
    let (pairing, game) = one_seated(&games, Ruleset::Omweso).await;
    let south = connect(&game, &pairing.first).await;
    let north = connect(&game, &pairing.second).await;
    let (tx, mut news) = mpsc::channel(16);
    game.watch(tx).await.unwrap();
    for (player, notation) in [(&south, "D1"), (&north, "F4"), (&south, "A1")] {
        play(&game, player, notation).await;
        next(&mut news).await;
    }

    let stopped = game.adjudicate().await.unwrap().unwrap();
    assert!(stopped.status.is_over(), "{stopped:?}");
    let end = next(&mut news).await;
    // 38 seeds on South's side, 26 on North's.
    let won = Outcome::Win {
        winner: Side::South,
        victory: Victory::Adjudicated,
    };
    assert_eq!(
        (end.version, end.status, end.outcome),
        (6, Status::Finished, Some(won))
    );
    assert_eq!(end.to_move, None);
    assert!(end.facts.ended_at_ms.is_some());
    let snapshot = game.snapshot(None).await.unwrap();
    assert_eq!(snapshot.outcome, Some(won));

    // Saved: the row and the log's entry.
    let row = store.game(pairing.id).await.unwrap().unwrap();
    assert_eq!(row.status, "finished");
    assert_eq!(
        row.outcome_json.as_deref(),
        Some(r#"{"result":"win","winner":"s","victory":"adjudicated"}"#)
    );
    // The final snapshot stored with the end is the game as it ended, seen by nobody:
    // nobody counted at the table (the sockets are not the store's), no `you`.
    let stored: Snapshot =
        serde_json::from_str(row.final_json.as_deref().expect("a final snapshot"))
            .expect("the final snapshot is a snapshot");
    let mut expected = snapshot.clone();
    for seat in [&mut expected.seats.s, &mut expected.seats.n] {
        seat.as_mut().expect("both seats taken").connected = false;
    }
    expected.spectators = 0;
    assert_eq!(stored, expected);
    let log = store.actions(pairing.id).await.unwrap();
    assert_eq!(log.last().map(|a| a.kind.as_str()), Some("adjudicate"));

    // Once over, it is not adjudicated again.
    let again = game.adjudicate().await.unwrap().unwrap_err();
    assert_eq!(again.code, ErrorCode::GameOver);

    // With the sockets gone the finished game unloads; its log replays to the same end.
    drop((south, north));
    timeout(PATIENCE, async {
        while !game.is_closed() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the finished game unloads");
    let reloaded = games.get(pairing.id).await.unwrap().unwrap();
    let replayed = reloaded.watch(mpsc::channel(1).0).await.unwrap();
    assert_eq!(replayed.outcome, Some(won));
    assert_eq!(replayed.version, end.version);
    assert_eq!(replayed.facts, end.facts);
}

#[tokio::test]
async fn the_end_reaches_a_watcher_whose_channel_is_full() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let (games, _stop) = registry(&store);
    let (pairing, game) = one_seated(&games, Ruleset::Oware).await;
    let south = connect(&game, &pairing.first).await;
    let north = connect(&game, &pairing.second).await;
    // Watched once both players are here (their coming is news too).
    let (tx, mut news) = mpsc::channel(1);
    game.watch(tx).await.unwrap();
    // Nobody reads: the first move's news fills the channel, the second's is dropped.
    play(&game, &south, "C1").await;
    play(&game, &north, "C2").await;
    // Once the snapshot answers, both moves were handled (commands run in order).
    assert_eq!(game.snapshot(None).await.unwrap().version, 4);
    let stopped = game.adjudicate().await.unwrap().unwrap();
    assert!(stopped.status.is_over(), "{stopped:?}");

    let first = next(&mut news).await;
    assert_eq!((first.version, first.last_move.as_deref()), (3, Some("C1")));
    let end = next(&mut news).await;
    assert_eq!((end.version, end.status), (5, Status::Finished));
    // Nothing captured yet in Oware: a draw.
    assert_eq!(end.outcome, Some(Outcome::Draw));
    assert_eq!(end.last_move.as_deref(), Some("C2"));
    assert_eq!(end.facts.turns, [1, 1]);
}
