//! A real server on port 0 in the test's process, with the clients of
//! [`omweso_testkit::Remote`] (through `Deref`), for the server's integration tests.

pub mod fixtures;
pub mod probe;

use std::time::Duration;

use omweso_server::config::ServeConfig;
pub use omweso_testkit::{postgres_admin_url, Client, FreshPostgres, Remote, PATIENCE};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use fixtures::SeatedGame;

pub struct TestServer {
    remote: Remote,
    /// Where this server serves `GET /metrics` (the tests' servers serve them on a port
    /// of their own, as a deployment does).
    metrics: Option<std::net::SocketAddr>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), omweso_server::server::ServeError>>>,
}

impl std::ops::Deref for TestServer {
    type Target = Remote;

    fn deref(&self) -> &Remote {
        &self.remote
    }
}

impl TestServer {
    pub async fn start(database_url: &str) -> TestServer {
        TestServer::start_with(ServeConfig::for_tests(database_url)).await
    }

    /// A server with the settings given (limits, say).
    pub async fn start_with(config: ServeConfig) -> TestServer {
        TestServer::start_at("127.0.0.1:0", config).await
    }

    /// A server listening on `bind` (`[::1]:0`, say).
    pub async fn start_at(bind: &str, mut config: ServeConfig) -> TestServer {
        if config.metrics_addr == "off" {
            config.metrics_addr = "127.0.0.1:0".into();
        }
        let listener = tokio::net::TcpListener::bind(bind).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let ready = omweso_server::server::Ready::new();
        let task = tokio::spawn(omweso_server::server::run_with(
            listener,
            config,
            async move {
                let _ = stopped.await;
            },
            ready.clone(),
        ));
        assert!(ready.wait().await, "the server did not start");
        TestServer {
            remote: Remote::new(addr),
            metrics: ready.metrics_addr(),
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// The value of the metric sample `sample` (a name, with its labels if it has any:
    /// `omweso_limited_total{limit="sessions_per_ip"}`) as this server reports it now.
    ///
    /// The gauges read at scrape time (`omweso_games_live`, `omweso_sessions_cached`) are
    /// this server's own; the counters are the process's, shared by every server of the
    /// test binary, so a test asserts exact counters only on a binary of its own (the
    /// `omweso` crate's cli tests).
    pub async fn metric(&self, sample: &str) -> f64 {
        let addr = self.metrics.expect("the tests' servers serve metrics");
        omweso_testkit::metric_value(
            &omweso_testkit::scrape(&format!("http://{addr}/metrics")).await,
            sample,
        )
    }

    /// Waits (the tests' patience at most) until no game is loaded: a finished game nobody
    /// watches leaves memory.
    pub async fn until_no_game_is_loaded(&self) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while self.metric("omweso_games_live").await != 0.0 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "a game stayed in memory"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            // Shutdown's waits are bounded (connections 3 s, sockets 3 s, the store's reads
            // 3 s); the rest is slack for a CI machine running two test threads.
            let served = tokio::time::timeout(Duration::from_secs(20), task)
                .await
                .expect("the server stops within 20 s");
            let served = served.unwrap_or_else(|e| panic!("the server's task: {e}"));
            if let Err(error) = served {
                panic!("the server stopped with an error: {error}");
            }
        }
    }
}

/// The tests' settings on `sqlite::memory:`, with the limits a test needs set on top.
pub fn config_with(set: impl FnOnce(&mut omweso_server::config::Limits)) -> ServeConfig {
    let mut config = ServeConfig::for_tests("sqlite::memory:");
    set(&mut config.limits);
    config
}

/// What the server's edge sets on every answer (docs/security.md): the same policy on a
/// page, a script, a JSON answer and a refusal.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Asserts the exact security headers of docs/security.md on one answer; HSTS exactly
/// when the server's public origin is https.
pub fn assert_security_headers(headers: &reqwest::header::HeaderMap, https: bool, what: &str) {
    let value = |name: &str| {
        headers
            .get(name)
            .map(|v| v.to_str().expect("a text header").to_owned())
    };
    assert_eq!(
        value("content-security-policy").as_deref(),
        Some(CONTENT_SECURITY_POLICY),
        "{what}"
    );
    assert_eq!(value("x-frame-options").as_deref(), Some("DENY"), "{what}");
    assert_eq!(
        value("x-content-type-options").as_deref(),
        Some("nosniff"),
        "{what}"
    );
    assert_eq!(
        value("referrer-policy").as_deref(),
        Some("same-origin"),
        "{what}"
    );
    let hsts = https.then_some("max-age=31536000");
    assert_eq!(
        value("strict-transport-security").as_deref(),
        hsts,
        "{what}"
    );
}

/// Runs `test` on a new SQLite file, the database self-hosters run (its writes on the
/// rusqlite connection, its checkpoints), then removes the file and its log.
pub async fn on_sqlite_file<F: std::future::Future<Output = ()>>(test: impl FnOnce(String) -> F) {
    let path = std::env::temp_dir().join(format!("omweso-test-{}.db", uuid::Uuid::new_v4()));
    test(format!("sqlite://{}", path.display())).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// Runs `test` on a new PostgreSQL database named from `prefix`, then drops it. Without
/// `TEST_POSTGRES_URL` it is skipped, saying so (on CI, `FreshPostgres::create` fails
/// instead).
pub async fn on_postgres<F: std::future::Future<Output = ()>>(
    prefix: &str,
    test: impl FnOnce(String) -> F,
) {
    let Some(database) = FreshPostgres::create(prefix).await else {
        eprintln!("TEST_POSTGRES_URL is not set: skipped on PostgreSQL");
        return;
    };
    test(database.url.clone()).await;
    database.drop_database().await;
}
