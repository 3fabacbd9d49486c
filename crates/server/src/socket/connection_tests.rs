//! Unit tests of the socket handlers over a test `Stream`/`Sink`, without a network (as
//! axum's `testing-websockets` example): rate limiting, batching, the slow-client drop,
//! missed pings, write timeouts and protocol close codes.
//!
//! Over 600 lines: the tests of one transport, sharing one scripted stream and sink; split
//! by concern, each part would need those helpers made public to its siblings.

use super::*;
use crate::game::actor::{Command, GameHandle, OUTGOING_QUEUE};
use crate::game::socket::read;
use crate::room::ConnId;

use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::{json, Value};

use omweso_protocol::ClientMessage;

const CONN: ConnId = 7;

fn text(text: &str) -> Result<Message, axum::Error> {
    Ok(Message::Text(text.to_owned().into()))
}

fn ping_frame(id: u64) -> Result<Message, axum::Error> {
    text(&format!(r#"{{"t":"ping","id":{id}}}"#))
}

fn pong_frame(payload: &[u8]) -> Result<Message, axum::Error> {
    Ok(Message::Pong(payload.to_vec().into()))
}

fn drain<T>(rx: &mut mpsc::Receiver<T>) -> Vec<T> {
    let mut items = Vec::new();
    while let Ok(item) = rx.try_recv() {
        items.push(item);
    }
    items
}

/// The ids of `ping` messages forwarded to the game, each checked to be a
/// `Command::Client` of [`CONN`].
fn client_ping_ids(commands: Vec<Command>) -> Vec<Value> {
    commands
        .into_iter()
        .map(|command| match command {
            Command::Client {
                conn: CONN,
                id: Some(id),
                message: ClientMessage::Ping(omweso_protocol::client::Empty {}),
            } => id,
            _ => panic!("expected a client ping of connection {CONN}"),
        })
        .collect()
}

/// A text the reader queued for the writer, parsed as JSON.
fn local_json(local: Local) -> Value {
    let Local::Text(text) = local else {
        panic!("expected a text frame, got {local:?}");
    };
    serde_json::from_str(&text).expect("the reader queues JSON")
}

fn error_json(id: Option<Value>, code: &str, message: &str) -> Value {
    let mut d = json!({"code": code, "message": message});
    if let Some(id) = id {
        d["id"] = id;
    }
    json!({"t": "error", "d": d})
}

/// The refusal of the message with id `id` for coming too fast.
fn rate_limited(id: u64) -> Value {
    error_json(
        Some(json!(id)),
        "rate_limited",
        "too many messages; slow down",
    )
}

/// A game whose commands the test reads, and the reader's queue to the writer.
fn reader_ends() -> (
    GameHandle,
    mpsc::Receiver<Command>,
    mpsc::Sender<Local>,
    mpsc::Receiver<Local>,
) {
    let (game_tx, game_rx) = mpsc::channel(64);
    let (local_tx, local_rx) = mpsc::channel(16);
    (GameHandle::for_tests(game_tx), game_rx, local_tx, local_rx)
}

fn counter(counter: &prometheus_client::metrics::counter::Counter) -> u64 {
    counter.get()
}

#[tokio::test(start_paused = true)]
async fn past_the_burst_messages_are_refused_as_rate_limited_with_their_id() {
    // Rate 2: bursts of 4. Time is paused, so nothing refills during the test.
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let mut stream = futures_util::stream::iter((0..7).map(ping_frame).collect::<Vec<_>>());
    read(&mut stream, &game, CONN, &local_tx, &pings, 2).await;

    assert_eq!(
        client_ping_ids(drain(&mut game_rx)),
        vec![json!(0), json!(1), json!(2), json!(3)]
    );
    let refusals: Vec<Value> = drain(&mut local_rx).into_iter().map(local_json).collect();
    let expected: Vec<Value> = (4..7).map(rate_limited).collect();
    assert_eq!(refusals, expected);
}

#[tokio::test(start_paused = true)]
async fn the_rate_limit_refills_at_its_rate() {
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let (frames_tx, mut frames_rx) = mpsc::unbounded_channel();
    let mut stream = futures_util::stream::poll_fn(move |cx| frames_rx.poll_recv(cx));
    let mut refused = Vec::new();
    let client = async {
        for id in 0..5 {
            frames_tx.send(ping_frame(id)).unwrap();
        }
        // The fifth is refused: the burst of 4 is spent.
        refused.push(local_rx.recv().await.unwrap());
        // Half a second at 2 a second: one message more, and only one.
        tokio::time::advance(Duration::from_millis(500)).await;
        for id in 5..7 {
            frames_tx.send(ping_frame(id)).unwrap();
        }
        drop(frames_tx);
    };
    tokio::join!(read(&mut stream, &game, CONN, &local_tx, &pings, 2), client);
    refused.extend(drain(&mut local_rx));

    assert_eq!(
        client_ping_ids(drain(&mut game_rx)),
        vec![json!(0), json!(1), json!(2), json!(3), json!(5)]
    );
    let refused: Vec<Value> = refused.into_iter().map(local_json).collect();
    assert_eq!(refused, vec![rate_limited(4), rate_limited(6),]);
}

#[tokio::test(start_paused = true)]
async fn an_idle_client_saves_up_no_more_than_the_burst() {
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let (frames_tx, mut frames_rx) = mpsc::unbounded_channel();
    let mut stream = futures_util::stream::poll_fn(move |cx| frames_rx.poll_recv(cx));
    let mut forwarded = Vec::new();
    let client = async {
        frames_tx.send(ping_frame(0)).unwrap();
        forwarded.push(game_rx.recv().await.unwrap());
        // Ten seconds at 2 a second would be 20 messages; the bucket holds 4.
        tokio::time::advance(Duration::from_secs(10)).await;
        for id in 1..7 {
            frames_tx.send(ping_frame(id)).unwrap();
        }
        drop(frames_tx);
    };
    tokio::join!(read(&mut stream, &game, CONN, &local_tx, &pings, 2), client);
    forwarded.extend(drain(&mut game_rx));

    assert_eq!(
        client_ping_ids(forwarded),
        vec![json!(0), json!(1), json!(2), json!(3), json!(4)]
    );
    let refused: Vec<Value> = drain(&mut local_rx).into_iter().map(local_json).collect();
    assert_eq!(refused, vec![rate_limited(5), rate_limited(6),]);
}

#[tokio::test]
async fn a_binary_frame_is_refused_as_bad_message_and_reading_goes_on() {
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let mut stream = futures_util::stream::iter(vec![
        Ok(Message::Binary(vec![1, 2, 3].into())),
        ping_frame(1),
    ]);
    read(&mut stream, &game, CONN, &local_tx, &pings, 10).await;

    let locals: Vec<Value> = drain(&mut local_rx).into_iter().map(local_json).collect();
    assert_eq!(
        locals,
        vec![error_json(
            None,
            "bad_message",
            "messages are JSON text frames"
        )]
    );
    assert_eq!(client_ping_ids(drain(&mut game_rx)), vec![json!(1)]);
}

#[tokio::test]
async fn an_undecodable_text_gets_its_decode_error() {
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let not_json = serde_json::from_str::<Value>("not json").unwrap_err();
    let mut stream = futures_util::stream::iter(vec![
        text(r#"{"t":"fly","id":"a"}"#),
        text("not json"),
        text(r#"{"t":"move","id":9}"#),
    ]);
    read(&mut stream, &game, CONN, &local_tx, &pings, 10).await;

    let locals: Vec<Value> = drain(&mut local_rx).into_iter().map(local_json).collect();
    assert_eq!(
        locals,
        vec![
            error_json(
                Some(json!("a")),
                "unknown_type",
                "unknown message type \"fly\": expected move, decide, arrange, resign, ping, impasse, impasse_answer",
            ),
            error_json(None, "bad_message", &format!("not JSON: {not_json}")),
            error_json(Some(json!(9)), "bad_message", "move: missing field `move`"),
        ]
    );
    assert!(drain(&mut game_rx).is_empty(), "nothing reaches the game");
}

#[tokio::test]
async fn a_close_frame_queues_its_echo_and_stops_reading() {
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let mut stream = futures_util::stream::iter(vec![
        Ok(Message::Close(Some(CloseFrame {
            code: 1000,
            reason: Utf8Bytes::from_static("bye"),
        }))),
        ping_frame(1),
    ]);
    read(&mut stream, &game, CONN, &local_tx, &pings, 10).await;

    assert_eq!(drain(&mut local_rx), vec![Local::EchoClose]);
    assert!(drain(&mut game_rx).is_empty());
    // The frame after the close was not read.
    assert_eq!(
        stream.next().await.unwrap().unwrap(),
        ping_frame(1).unwrap()
    );
}

#[tokio::test]
async fn a_broken_frame_closes_with_its_protocol_code_and_stops_reading() {
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let too_long =
        tungstenite::Error::Capacity(tungstenite::error::CapacityError::MessageTooLong {
            size: HARD_FRAME_LIMIT + 1,
            max_size: HARD_FRAME_LIMIT,
        });
    let mut stream =
        futures_util::stream::iter(vec![Err(axum::Error::new(too_long)), ping_frame(1)]);
    read(&mut stream, &game, CONN, &local_tx, &pings, 10).await;

    assert_eq!(
        drain(&mut local_rx),
        vec![Local::Close(1009, "the frame is too large")]
    );
    assert!(drain(&mut game_rx).is_empty());
    assert_eq!(
        stream.next().await.unwrap().unwrap(),
        ping_frame(1).unwrap()
    );
}

#[test]
fn protocol_errors_close_with_rfc_6455_codes() {
    let code = |error: tungstenite::Error| protocol_error_close(axum::Error::new(error)).0;
    assert_eq!(
        code(tungstenite::Error::Capacity(
            tungstenite::error::CapacityError::MessageTooLong {
                size: 2,
                max_size: 1,
            }
        )),
        1009
    );
    assert_eq!(code(tungstenite::Error::Utf8("invalid utf-8".into())), 1007);
    assert_eq!(
        code(tungstenite::Error::Protocol(
            tungstenite::error::ProtocolError::UnmaskedFrameFromClient
        )),
        1002
    );
    let not_tungstenite = axum::Error::new(std::io::Error::other("reset"));
    assert_eq!(protocol_error_close(not_tungstenite).0, 1002);
}

#[tokio::test(start_paused = true)]
async fn a_pong_echoing_our_ping_reports_its_round_trip_and_a_made_up_one_does_not() {
    let (game, mut game_rx, local_tx, mut local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let nonce = pings.lock().unwrap().send().unwrap();
    tokio::time::advance(Duration::from_millis(250)).await;
    let ignored_before = counter(&METRICS.ignored_pongs);
    let mut stream = futures_util::stream::iter(vec![
        pong_frame(&nonce.wrapping_add(1).to_be_bytes()),
        pong_frame(b"short"),
        pong_frame(&nonce.to_be_bytes()),
        // Answered already.
        pong_frame(&nonce.to_be_bytes()),
    ]);
    read(&mut stream, &game, CONN, &local_tx, &pings, 10).await;

    let commands = drain(&mut game_rx);
    assert_eq!(
        commands.len(),
        1,
        "one latency report, for the one real pong"
    );
    let Command::Latency {
        conn,
        round_trip_ms,
    } = commands[0]
    else {
        panic!("expected a latency report");
    };
    assert_eq!((conn, round_trip_ms), (CONN, 250));
    assert!(pings.lock().unwrap().outstanding.is_empty());
    assert!(drain(&mut local_rx).is_empty(), "pongs are not answered");
    // The counter is the process's: other tests may count too, never less than these 3.
    assert!(counter(&METRICS.ignored_pongs) >= ignored_before + 3);
}

#[tokio::test(start_paused = true)]
async fn a_pong_past_the_rate_is_ignored_even_if_it_is_ours() {
    let (game, mut game_rx, local_tx, _local_rx) = reader_ends();
    let pings = Mutex::new(Pings::default());
    let nonce = pings.lock().unwrap().send().unwrap();
    // Rate 1: a burst of 2, spent by the two pings.
    let mut stream = futures_util::stream::iter(vec![
        ping_frame(1),
        ping_frame(2),
        pong_frame(&nonce.to_be_bytes()),
    ]);
    read(&mut stream, &game, CONN, &local_tx, &pings, 1).await;

    assert_eq!(
        client_ping_ids(drain(&mut game_rx)),
        vec![json!(1), json!(2)]
    );
    assert_eq!(
        pings.lock().unwrap().outstanding.len(),
        1,
        "the ping is still unanswered"
    );
}

/// What the writer did to its sink.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Sent(Message),
    Flushed,
    Closed,
}

/// Where a [`Recorder`] stops accepting: a client that does not read.
#[derive(Clone, Copy)]
enum Stall {
    Never,
    /// `poll_ready` is never ready.
    Ready,
    /// Messages are accepted, `poll_flush` never completes.
    Flush,
}

/// A sink recording what is sent, flushed and closed.
struct Recorder {
    events: Arc<Mutex<Vec<Event>>>,
    stall: Stall,
    /// Answers each ping at once on these pings, as a client reading and ponging would.
    answer: Option<Arc<Mutex<Pings>>>,
}

impl Recorder {
    fn new(stall: Stall) -> (Recorder, Arc<Mutex<Vec<Event>>>) {
        let events = Arc::new(Mutex::new(Vec::new()));
        let recorder = Recorder {
            events: events.clone(),
            stall,
            answer: None,
        };
        (recorder, events)
    }
}

impl futures_util::Sink<Message> for Recorder {
    type Error = axum::Error;

    fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        match self.stall {
            Stall::Ready => Poll::Pending,
            Stall::Never | Stall::Flush => Poll::Ready(Ok(())),
        }
    }

    fn start_send(self: Pin<&mut Self>, message: Message) -> Result<(), Self::Error> {
        if let (Some(pings), Message::Ping(nonce)) = (&self.answer, &message) {
            assert!(pings.lock().unwrap().answer(nonce).is_some());
        }
        self.events.lock().unwrap().push(Event::Sent(message));
        Ok(())
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        match self.stall {
            Stall::Flush => Poll::Pending,
            Stall::Never | Stall::Ready => {
                self.events.lock().unwrap().push(Event::Flushed);
                Poll::Ready(Ok(()))
            }
        }
    }

    fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.events.lock().unwrap().push(Event::Closed);
        Poll::Ready(Ok(()))
    }
}

fn settings(ping_every: Duration) -> Settings {
    Settings {
        rate: 10,
        ping_every,
        write_timeout: Duration::from_secs(5),
    }
}

const AN_HOUR: Duration = Duration::from_secs(3600);

fn sent_text(text: &str) -> Event {
    Event::Sent(Message::Text(Utf8Bytes::from(text)))
}

fn sent_close(code: u16, reason: &'static str) -> Event {
    Event::Sent(close(code, reason))
}

fn sent_ping(nonce: u64) -> Event {
    Event::Sent(Message::Ping(nonce.to_be_bytes().to_vec().into()))
}

fn events(events: &Arc<Mutex<Vec<Event>>>) -> Vec<Event> {
    events.lock().unwrap().clone()
}

#[tokio::test(start_paused = true)]
async fn texts_queued_together_go_out_in_one_flush() {
    let (sink, recorded) = Recorder::new(Stall::Never);
    let (game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (local_tx, local_rx) = mpsc::channel(16);
    for text in ["a", "b", "c"] {
        game_tx.try_send(Outgoing::Text(text.into())).unwrap();
    }
    let pings = Arc::new(Mutex::new(Pings::default()));
    let writer = tokio::spawn(write(
        sink,
        game_rx,
        local_rx,
        pings.clone(),
        settings(AN_HOUR),
    ));
    // Paused time: the writer runs until it waits, then the clock jumps to this second.
    tokio::time::sleep(Duration::from_secs(1)).await;
    drop(local_tx);
    assert_eq!(writer.await.unwrap(), Stop::Done);

    // The game's messages come first; the first ping (the interval ticks at once)
    // after them, flushed on its own.
    let nonce = pings.lock().unwrap().outstanding[0].0;
    assert_eq!(
        events(&recorded),
        vec![
            sent_text("a"),
            sent_text("b"),
            sent_text("c"),
            Event::Flushed,
            sent_ping(nonce),
            Event::Flushed,
        ]
    );
    drop(game_tx);
}

#[tokio::test(start_paused = true)]
async fn a_connection_the_game_dropped_is_closed_as_too_slow() {
    let (sink, recorded) = Recorder::new(Stall::Never);
    let (game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (_local_tx, local_rx) = mpsc::channel(16);
    game_tx.try_send(Outgoing::Text("last".into())).unwrap();
    drop(game_tx);
    let pings = Arc::new(Mutex::new(Pings::default()));
    let stop = write(sink, game_rx, local_rx, pings.clone(), settings(AN_HOUR)).await;

    assert_eq!(stop, Stop::Done);
    // What was queued still goes out, then the close, in the same flush.
    assert_eq!(
        events(&recorded),
        vec![
            sent_text("last"),
            sent_close(1008, "too slow to keep up; reconnect to resync"),
            Event::Flushed,
        ]
    );
    assert!(pings.lock().unwrap().outstanding.is_empty(), "no ping sent");
}

#[tokio::test(start_paused = true)]
async fn three_unanswered_pings_close_the_socket_at_the_fourth_tick() {
    let (sink, recorded) = Recorder::new(Stall::Never);
    let (_game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (_local_tx, local_rx) = mpsc::channel(16);
    let pings = Arc::new(Mutex::new(Pings::default()));
    let dropped_before = counter(&METRICS.dropped_silent_sockets);
    let start = Instant::now();
    let stop = write(
        sink,
        game_rx,
        local_rx,
        pings.clone(),
        settings(Duration::from_secs(10)),
    )
    .await;

    assert_eq!(stop, Stop::Done);
    // Ticks at 0, 10 and 20 s ping; the one at 30 s closes.
    assert_eq!(start.elapsed(), Duration::from_secs(30));
    let nonces: Vec<u64> = pings
        .lock()
        .unwrap()
        .outstanding
        .iter()
        .map(|(nonce, _)| *nonce)
        .collect();
    assert_eq!(nonces.len(), MISSED_PINGS);
    assert_eq!(
        events(&recorded),
        vec![
            sent_ping(nonces[0]),
            Event::Flushed,
            sent_ping(nonces[1]),
            Event::Flushed,
            sent_ping(nonces[2]),
            Event::Flushed,
            sent_close(1008, "no answer to three pings"),
            Event::Flushed,
        ]
    );
    assert!(counter(&METRICS.dropped_silent_sockets) > dropped_before);
}

#[tokio::test(start_paused = true)]
async fn answered_pings_keep_the_socket_open() {
    let (mut sink, recorded) = Recorder::new(Stall::Never);
    let pings = Arc::new(Mutex::new(Pings::default()));
    sink.answer = Some(pings.clone());
    let (_game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (local_tx, local_rx) = mpsc::channel(16);
    let writer = tokio::spawn(write(
        sink,
        game_rx,
        local_rx,
        pings.clone(),
        settings(Duration::from_secs(10)),
    ));
    // Ticks at 0, 10, .., 90 s: ten pings, each answered.
    tokio::time::sleep(Duration::from_secs(95)).await;
    drop(local_tx);
    assert_eq!(writer.await.unwrap(), Stop::Done);

    let events = events(&recorded);
    assert_eq!(events.len(), 20);
    for pair in events.chunks(2) {
        assert!(matches!(pair[0], Event::Sent(Message::Ping(_))), "{pair:?}");
        assert_eq!(pair[1], Event::Flushed);
    }
}

#[tokio::test(start_paused = true)]
async fn the_readers_close_and_echo_go_out_before_anything_else() {
    // A protocol close: sent and flushed, then the writer stops.
    let (sink, recorded) = Recorder::new(Stall::Never);
    let (game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (local_tx, local_rx) = mpsc::channel(16);
    game_tx.try_send(Outgoing::Text("later".into())).unwrap();
    local_tx
        .try_send(Local::Close(1009, "the frame is too large"))
        .unwrap();
    let pings = Arc::new(Mutex::new(Pings::default()));
    let stop = write(sink, game_rx, local_rx, pings, settings(AN_HOUR)).await;
    assert_eq!(stop, Stop::Done);
    assert_eq!(
        events(&recorded),
        vec![sent_close(1009, "the frame is too large"), Event::Flushed]
    );

    // The echo of a client's close: the sink is closed (tungstenite queued the echo).
    let (sink, recorded) = Recorder::new(Stall::Never);
    let (game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (local_tx, local_rx) = mpsc::channel(16);
    game_tx.try_send(Outgoing::Text("later".into())).unwrap();
    local_tx.try_send(Local::EchoClose).unwrap();
    let pings = Arc::new(Mutex::new(Pings::default()));
    let stop = write(sink, game_rx, local_rx, pings, settings(AN_HOUR)).await;
    assert_eq!(stop, Stop::Done);
    assert_eq!(events(&recorded), vec![Event::Closed]);
}

#[tokio::test(start_paused = true)]
async fn a_sink_never_ready_times_the_writer_out() {
    let (sink, recorded) = Recorder::new(Stall::Ready);
    let (game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (_local_tx, local_rx) = mpsc::channel(16);
    game_tx.try_send(Outgoing::Text("unread".into())).unwrap();
    let pings = Arc::new(Mutex::new(Pings::default()));
    let timeouts_before = counter(&METRICS.dropped_write_timeouts);
    let start = Instant::now();
    let stop = write(sink, game_rx, local_rx, pings, settings(AN_HOUR)).await;

    assert_eq!(stop, Stop::TimedOut);
    assert_eq!(start.elapsed(), Duration::from_secs(5), "the write timeout");
    assert!(events(&recorded).is_empty());
    assert!(counter(&METRICS.dropped_write_timeouts) > timeouts_before);
}

#[tokio::test(start_paused = true)]
async fn a_flush_that_never_completes_times_the_writer_out() {
    let (sink, recorded) = Recorder::new(Stall::Flush);
    let (game_tx, game_rx) = mpsc::channel(OUTGOING_QUEUE);
    let (_local_tx, local_rx) = mpsc::channel(16);
    game_tx.try_send(Outgoing::Text("unread".into())).unwrap();
    let pings = Arc::new(Mutex::new(Pings::default()));
    let start = Instant::now();
    let stop = write(sink, game_rx, local_rx, pings, settings(AN_HOUR)).await;

    assert_eq!(stop, Stop::TimedOut);
    assert_eq!(start.elapsed(), Duration::from_secs(5), "the write timeout");
    assert_eq!(events(&recorded), vec![sent_text("unread")]);
}

#[test]
fn only_a_pong_echoing_a_ping_of_ours_counts() {
    let mut pings = Pings::default();
    assert_eq!(pings.answer(&0u64.to_be_bytes()), None, "no ping was sent");
    let first = pings.send().unwrap();
    let second = pings.send().unwrap();
    assert_ne!(first, second);
    assert_eq!(pings.answer(&0u64.to_be_bytes()), None, "a made-up nonce");
    assert_eq!(pings.answer(b"short"), None);
    // Answering the newest answers the older one too.
    assert!(pings.answer(&second.to_be_bytes()).is_some());
    assert!(pings.outstanding.is_empty());
    assert_eq!(
        pings.answer(&second.to_be_bytes()),
        None,
        "answered once only"
    );
}

#[test]
fn three_unanswered_pings_and_no_more_are_sent() {
    let mut pings = Pings::default();
    for _ in 0..MISSED_PINGS {
        assert!(pings.send().is_some());
    }
    assert_eq!(pings.send(), None);
}
