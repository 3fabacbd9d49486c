//! `omweso_limited_total` counts each refusal under its limit's label (docs/security.md):
//! the real binary, alone in its process (the counters are a process's, so a server in
//! the server crate's test binary shares them with every other test's), refusing one
//! session past its address's limit; its metrics show exactly that one refusal.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use omweso_testkit::Remote;
use serde_json::json;

/// `omweso serve` with metrics on a port of its own; killed when dropped.
struct Server {
    child: Child,
    public: std::net::SocketAddr,
    metrics: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_omweso"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--metrics-addr",
                "127.0.0.1:0",
            ])
            .args(["--database-url", "sqlite::memory:", "--log-level", "error"])
            .args(args)
            .env_clear()
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the omweso binary starts");
        let mut lines = BufReader::new(child.stdout.take().expect("its stdout")).lines();
        let mut line = || lines.next().expect("a line").expect("text");
        let listening = line();
        let public = listening
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("not the listening line: {listening}"))
            .parse()
            .expect("an address");
        let metrics_line = line();
        let metrics = metrics_line
            .strip_prefix("metrics on ")
            .unwrap_or_else(|| panic!("not the metrics line: {metrics_line}"))
            .to_owned();
        std::thread::spawn(move || lines.for_each(drop));
        Server {
            child,
            public,
            metrics,
        }
    }

    /// Every `omweso_limited_total` sample, as `(label, count)`, in the order served.
    async fn limited(&self) -> Vec<(String, u64)> {
        let text = omweso_testkit::scrape(&self.metrics).await;
        text.lines()
            .filter_map(|line| line.strip_prefix("omweso_limited_total{limit=\""))
            .map(|rest| {
                let (label, count) = rest.split_once("\"} ").expect("a labelled sample");
                (label.to_owned(), count.trim().parse().expect("a count"))
            })
            .collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn a_refusal_is_counted_once_under_its_limits_label() {
    let server = Server::start(&["--sessions-per-ip-per-minute", "2"]);
    let before = server.limited().await;
    assert_eq!(
        before.len(),
        45,
        "one sample per limit of docs/security.md: {before:?}"
    );
    assert!(before.iter().all(|(_, count)| *count == 0), "{before:?}");
    let remote = Remote::new(server.public);
    for name in ["Kato", "Nakato"] {
        remote.session(name).await;
    }
    let (status, body) = remote
        .post("/api/session", "", json!({"name": "Apio"}))
        .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited");
    let after = server.limited().await;
    let expected: Vec<(String, u64)> = before
        .iter()
        .map(|(label, _)| (label.clone(), u64::from(label == "sessions_per_ip")))
        .collect();
    assert_eq!(after, expected);
}
