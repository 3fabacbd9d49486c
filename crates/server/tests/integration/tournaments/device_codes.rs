//! A director's code for a player's new device (docs/accounts.md "A player who lost their
//! device", docs/security.md#accounts): the device it links is that player only within
//! that tournament, refused everywhere else with `403 limited_device`, after a restart
//! too; the code takes the device to the player's place as it is when the code is used
//! (their live game, their board table's sheet, or the tournament page); the console
//! learns who may be given a device and when a code was used; a relay's code typed at
//! `/link` says where it leads, without being spent.

use crate::common::TestServer;
use crate::documented::upgrade_refused;
use serde_json::{json, Value};

use super::*;

/// The refusal's status and code.
fn code_of(answer: &(u16, Value)) -> (u16, &str) {
    (answer.0, answer.1["error"]["code"].as_str().unwrap_or(""))
}

/// The code `director` gives `player` of `event` for a new device.
async fn device_code(event: &Event<'_>, player: &str) -> Value {
    let (status, code) = event
        .server
        .post(
            &event.path(&format!("/players/{player}/link-code")),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{code}");
    code
}

/// A fresh phone (no session) that uses `code` at `/link`: the answer.
async fn linked(server: &Remote, code: &Value) -> Value {
    let (status, linked) = server
        .post_anonymous("/api/link", json!({"code": code["code"]}))
        .await;
    assert_eq!(status, 200, "{linked}");
    linked
}

fn token(linked: &Value) -> String {
    linked["token"].as_str().expect("a token").to_owned()
}

/// What the phone `phone`, linked by a director of `club` to `kato`, may and may not do.
async fn only_in_the_club(
    server: &Remote,
    phone: &str,
    club: &str,
    own: &str,
    kato: &str,
    other_player: &str,
    lobby_game: &str,
) {
    let (status, me) = server.get("/api/me", phone).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["player_id"], kato, "{me}");
    assert_eq!(me["only_tournament"], club, "{me}");
    let (status, snap) = server.get(&format!("/api/tournaments/{club}"), phone).await;
    assert_eq!(status, 200, "{snap}");
    assert_eq!(snap["you"], kato, "the club's page as Kato: {snap}");

    let refused = [
        (
            "his own tournament",
            server.get(&format!("/api/tournaments/{own}"), phone).await,
        ),
        (
            "its actions",
            server
                .get(&format!("/api/tournaments/{own}/actions"), phone)
                .await,
        ),
        (
            "pairing it",
            server
                .post(&format!("/api/tournaments/{own}/rounds"), phone, json!({}))
                .await,
        ),
        ("his devices", server.get("/api/devices", phone).await),
        (
            "a link code of his own",
            server.post("/api/link-codes", phone, json!({})).await,
        ),
        (
            "a rename",
            server
                .patch("/api/me", phone, json!({"name": "Not Kato"}))
                .await,
        ),
        (
            "an account made of the guest",
            server
                .post(
                    "/api/account",
                    phone,
                    json!({"username": "stolen_kato", "password": "seeds in the outer row at dusk"}),
                )
                .await,
        ),
        ("his games", server.get("/api/me/games", phone).await),
        (
            "a new game",
            server
                .post("/api/games", phone, json!({"ruleset": "oware"}))
                .await,
        ),
        (
            "a code for another player",
            server
                .post(
                    &format!("/api/tournaments/{club}/players/{other_player}/link-code"),
                    phone,
                    json!({}),
                )
                .await,
        ),
        (
            "withdrawing another player",
            server
                .post(
                    &format!("/api/tournaments/{club}/withdraw"),
                    phone,
                    json!({"player_id": other_player}),
                )
                .await,
        ),
    ];
    // A game outside the club is shown as to any visitor (watching needs no name), never
    // as Kato's: not his seat, not his moves.
    let (status, outside) = server.get(&format!("/api/games/{lobby_game}"), phone).await;
    assert_eq!((status, &outside["you"]), (200, &Value::Null), "{outside}");
    for (what, answer) in &refused {
        assert_eq!(
            code_of(answer),
            (403, "limited_device"),
            "{what}: {answer:?}"
        );
    }
    assert_eq!(
        refused[0].1 .1["error"]["message"],
        "this device was linked by a tournament's director: it is Kato in that tournament only; sign it out to do anything else here",
    );
    // The sockets: his own tournament's and the outside game's are refused, the club's opens.
    for path in [
        format!("/ws/tournaments/{own}?token={phone}"),
        format!("/ws/games/{lobby_game}?token={phone}"),
        format!("/ws/lobby?token={phone}"),
    ] {
        let (status, body) = upgrade_refused(server, &path).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (403, Some("limited_device")),
            "{path}: {body}"
        );
    }
    let mut socket = server
        .socket_at(&format!("/ws/tournaments/{club}?token={phone}"))
        .await;
    let state = socket.recv_type("state").await;
    assert_eq!(state["d"]["you"], kato, "{state}");
}

#[tokio::test]
async fn a_directors_device_code_makes_the_player_in_that_tournament_only_and_after_a_restart() {
    let path = std::env::temp_dir().join(format!("omweso-limited-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    let server = TestServer::start(&url).await;
    // Kato, a guest, directs a tournament of his own, plays a game in the lobby, and
    // joins the club.
    let (kato_token, kato) = server.session("Kato").await;
    let own = server
        .create_tournament(&kato_token, json!({"name": "Kato's own", "setup": "outer"}))
        .await;
    let lobby_game = server
        .create(&kato_token, json!({"ruleset": "oware"}))
        .await;
    let mut club = Event::create(&server, json!({"name": "Club", "rounds": 1})).await;
    let (status, r) = server
        .post(&club.path("/join"), &kato_token, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let other = club.join("B").await;

    let code = device_code(&club, &kato).await;
    let linked = linked(&server, &code).await;
    assert_eq!(linked["player_id"], kato.as_str(), "{linked}");
    assert_eq!(linked["only_tournament"], club.id.as_str(), "{linked}");
    let phone = token(&linked);
    only_in_the_club(&server, &phone, &club.id, &own, &kato, &other, &lobby_game).await;
    // Kato's own device is untouched: it still directs his tournament.
    let (status, r) = server
        .get(&format!("/api/tournaments/{own}/actions"), &kato_token)
        .await;
    assert_eq!(status, 200, "{r}");
    let club_id = club.id.clone();
    server.stop().await;

    // The limit is stored with the device.
    let server = TestServer::start(&url).await;
    only_in_the_club(&server, &phone, &club_id, &own, &kato, &other, &lobby_game).await;
    // Signing the phone out is its own right.
    let (status, _) = server.delete("/api/session", &phone).await;
    assert_eq!(status, 204);
    server.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// A player of `event` whose table in round `round` is `table` (from 1).
fn player_at(snap: &Value, round: usize, table: usize) -> String {
    super::round(snap, round)["pairings"][table - 1]["first"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_device_code_takes_the_new_device_to_the_players_place_when_it_is_used() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name": "Club evening", "rounds": 2})).await;
    let mut players = Vec::new();
    for name in ["A", "B", "C", "D"] {
        players.push(event.join(name).await);
    }
    let place = |linked: &Value| linked["place"].clone();
    // Before the first round: the tournament page.
    let before = linked(&server, &device_code(&event, &players[0]).await).await;
    assert_eq!(
        place(&before),
        json!({"kind": "tournament", "path": format!("/t/{}", event.id),
               "tournament_id": event.id, "tournament_name": "Club evening"}),
        "{before}"
    );

    // Round 1 paired: table 1 at the board, table 2 online. A code made now for table 2's
    // player is used once the round has started: it leads to the game, as it is then.
    let view = event.pair().await;
    let (status, r) = server
        .put(
            &event.path("/rounds/1/played-at"),
            &event.director,
            json!({"played_at": "board", "table": 1}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let online_player = view["pairings"][1]["first"].as_str().unwrap().to_owned();
    let early = device_code(&event, &online_player).await;
    let snap_paired = event.snapshot().await;
    let board_player = player_at(&snap_paired, 1, 1);
    let started = event.start(1).await;
    let game = started["pairings"][1]["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let at_game = linked(&server, &early).await;
    assert_eq!(
        place(&at_game),
        json!({"kind": "game", "path": format!("/g/{game}"), "tournament_id": event.id,
               "tournament_name": "Club evening", "round": 1, "table": 2}),
        "{at_game}"
    );
    // The phone is the player at that game.
    let phone = token(&at_game);
    let (status, snap) = server.get(&format!("/api/games/{game}"), &phone).await;
    assert_eq!(status, 200, "{snap}");
    let seat = snap["you"].as_str().unwrap_or_default().to_owned();
    assert!(seat == "s" || seat == "n", "the phone is seated: {snap}");
    let mut socket = server.socket(&game, Some(&phone), None).await;
    let state = socket.recv_type("state").await;
    assert_eq!(state["d"]["you"], seat, "{state}");

    // The board table's player: their sheet.
    let at_board = linked(&server, &device_code(&event, &board_player).await).await;
    assert_eq!(
        place(&at_board),
        json!({"kind": "sheet", "path": format!("/t/{}/sheet/1/1", event.id),
               "tournament_id": event.id, "tournament_name": "Club evening",
               "round": 1, "table": 1}),
        "{at_board}"
    );

    // The online game over (round 1 still being played at the board): the tournament page.
    socket
        .send(json!({"t": "resign", "d": {}, "id": "r"}))
        .await;
    socket.expect_ack("r").await;
    event
        .until("the game's end", |s| {
            !round(s, 1)["pairings"][1]["sheet"].is_null()
        })
        .await;
    let after = linked(&server, &device_code(&event, &online_player).await).await;
    assert_eq!(place(&after)["kind"], "tournament", "{after}");
    assert_eq!(place(&after)["path"], format!("/t/{}", event.id));
    // A person's own link code (not a director's) has no place and no limit.
    let (own_token, _) = server.session("E").await;
    let (status, own_code) = server.post("/api/link-codes", &own_token, json!({})).await;
    assert_eq!(status, 201, "{own_code}");
    let own = linked(&server, &own_code).await;
    assert!(own.get("place").is_none(), "{own}");
    assert!(own.get("only_tournament").is_none(), "{own}");
    assert_eq!(own["kind"], "device", "{own}");
    server.stop().await;
}

#[tokio::test]
async fn the_console_learns_who_may_get_a_new_device_and_when_a_code_is_used() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name": "Console", "rounds": 1})).await;
    let guest = event.join("Guest").await;
    let (kato_token, kato) = account(&server, "Kato").await;
    let (status, r) = server
        .post(&event.path("/join"), &kato_token, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server.get(&event.path("/new-devices"), &kato_token).await;
    assert_eq!(code_of(&(status, r.clone())), (403, "not_director"), "{r}");
    let (status, list) = server
        .get(&event.path("/new-devices"), &event.director)
        .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        list,
        json!({"players": [
            {"player_id": guest, "may_give": true},
            {"player_id": kato, "may_give": false,
             "why_not": "Kato has an account: they log in on the new device (or use a recovery code)"},
        ]})
    );

    // The director's console watches the tournament: a code used is told at once.
    let mut console = server
        .socket_at(&format!(
            "/ws/tournaments/{}?token={}",
            event.id, event.director
        ))
        .await;
    console.recv_type("state").await;
    let code = device_code(&event, &guest).await;
    linked(&server, &code).await;
    let told = console.recv_type("device_linked").await;
    assert_eq!(told["d"]["player_id"], guest.as_str(), "{told}");
    let at = told["d"]["at_ms"].as_u64().unwrap();
    let (_, list) = server
        .get(&event.path("/new-devices"), &event.director)
        .await;
    assert_eq!(list["players"][0]["linked_at_ms"], at, "{list}");
    // A used code stays used.
    let (status, again) = server
        .post_anonymous("/api/link", json!({"code": code["code"]}))
        .await;
    assert_eq!(
        code_of(&(status, again.clone())),
        (400, "bad_code"),
        "{again}"
    );
    // The actions list says it too.
    let (_, actions) = server.get(&event.path("/actions"), &event.director).await;
    let last = actions["actions"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        last["summary"], "gave Guest a code for a new device",
        "{actions}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_relays_code_typed_at_link_says_where_it_leads_and_stays_good() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name": "Wooden boards", "rounds": 1})).await;
    event.join("A").await;
    event.join("B").await;
    event.pair().await;
    let (status, r) = server
        .put(
            &event.path("/rounds/1/played-at"),
            &event.director,
            json!({"played_at": "board"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    event.start(1).await;
    let (status, invite) = server
        .post(
            &event.path("/tables/1/1/relay-invite"),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let typed = invite["code"]
        .as_str()
        .unwrap()
        .to_lowercase()
        .replace('-', " ");
    let (status, found) = server
        .post_anonymous("/api/link", json!({"code": typed}))
        .await;
    assert_eq!(status, 200, "{found}");
    let bare = invite["code"].as_str().unwrap().replace('-', "");
    assert_eq!(
        found,
        json!({"kind": "relay", "tournament_id": event.id, "tournament_name": "Wooden boards",
               "round": 1, "table": 1,
               "path": format!("/t/{}/relay/1/1#code={bare}", event.id)})
    );
    // Nothing was signed in, and the code is still the relay's to claim.
    let (volunteer, _) = server.session("Volunteer").await;
    let (status, r) = server
        .post(
            &event.path("/tables/1/1/relay"),
            &volunteer,
            json!({"code": bare}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["pairings"][0]["board"]["relay_name"], "Volunteer", "{r}");
    // Claimed, the code leads nowhere any more.
    let (status, r) = server
        .post_anonymous("/api/link", json!({"code": bare}))
        .await;
    assert_eq!(code_of(&(status, r.clone())), (400, "bad_code"), "{r}");
    server.stop().await;
}
