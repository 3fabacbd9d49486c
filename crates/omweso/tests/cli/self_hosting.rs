//! The binary as a self-hoster runs it: configured only through `OMWESO_*` variables,
//! against PostgreSQL (when `TEST_POSTGRES_URL` is set; an SQLite file otherwise), playing
//! a game and scraping `/metrics` to see the counters move.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use omweso_testkit::metric_value as metric;
use serde_json::json;

/// A database URL for this run (PostgreSQL when available), and the database to drop.
async fn database() -> (String, Option<omweso_testkit::FreshPostgres>) {
    match omweso_testkit::FreshPostgres::create("omweso_selfhost").await {
        Some(pg) => (pg.url.clone(), Some(pg)),
        None => {
            let path =
                std::env::temp_dir().join(format!("omweso-selfhost-{}.db", uuid::Uuid::new_v4()));
            (format!("sqlite://{}", path.display()), None)
        }
    }
}

#[tokio::test]
async fn the_binary_configured_only_by_environment_plays_and_counts() {
    let (database_url, cleanup) = database().await;
    let mut child = Command::new(env!("CARGO_BIN_EXE_omweso"))
        .arg("serve")
        .env_clear()
        .env("OMWESO_ADDR", "127.0.0.1:0")
        .env("OMWESO_METRICS_ADDR", "127.0.0.1:0")
        .env("OMWESO_DATABASE_URL", &database_url)
        .env("OMWESO_LOG_FORMAT", "json")
        .env("OMWESO_LOG", "warn")
        .env("OMWESO_RATE_LIMIT", "50")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the omweso binary starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let listening = lines.next().unwrap().unwrap();
    let metrics_line = lines.next().unwrap().unwrap();
    let base = listening
        .strip_prefix("listening on ")
        .expect(&listening)
        .to_owned();
    let metrics_url = metrics_line
        .strip_prefix("metrics on ")
        .expect(&metrics_line)
        .to_owned();

    let server = omweso_testkit::Remote::new(
        base.strip_prefix("http://")
            .and_then(|a| a.parse().ok())
            .expect("an address"),
    );
    let ((kato, _), (nakato, _)) = (server.session("Kato").await, server.session("Nakato").await);
    let game = server.create(&kato, json!({"ruleset":"oware"})).await;
    server.join(&nakato, &game).await;
    let mut sockets = [
        server.socket(&game, Some(&kato), None).await,
        server.socket(&game, Some(&nakato), None).await,
    ];
    for (who, mv) in [(0, "C1"), (1, "C2"), (0, "D1")] {
        sockets[who]
            .send(json!({"t":"move","d":{"move":mv},"id":mv}))
            .await;
        sockets[who].expect_ack(mv).await;
    }
    let http = &server.http;
    let text = omweso_testkit::scrape(&metrics_url).await;
    assert_eq!(metric(&text, "omweso_moves_total"), 3.0);
    assert_eq!(metric(&text, "omweso_games_created_total"), 1.0);
    assert_eq!(metric(&text, "omweso_games_live"), 1.0);
    assert_eq!(metric(&text, "omweso_connections{kind=\"player\"}"), 2.0);
    assert_eq!(metric(&text, "omweso_move_latency_seconds_count"), 3.0);
    // The creation, the join and three moves were committed to the log.
    assert!(metric(&text, "omweso_database_latency_seconds_count") >= 4.0);
    // The metrics are not on the public port.
    let public = http.get(format!("{base}/metrics")).send().await.unwrap();
    assert_eq!(public.status(), 404);

    // SIGTERM: a clean stop.
    let pid = child.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
    if let Some(database) = cleanup {
        database.drop_database().await;
    } else if let Some(path) = database_url.strip_prefix("sqlite://") {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    }
}
