//! Two servers on one machine: the second meets the first's metrics port. It must stop
//! with a message that names the setting to change (`--metrics-addr`, or
//! `OMWESO_METRICS_ADDR`), not only "Address already in use".

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `omweso serve` on a free public port, an in-memory database and `metrics` as its
/// metrics address.
fn serve(metrics: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_omweso"));
    command
        .arg("serve")
        .args(["--addr", "127.0.0.1:0"])
        .args(["--database-url", "sqlite::memory:"])
        .args(["--metrics-addr", metrics])
        .env("OMWESO_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

#[test]
fn a_second_server_on_a_taken_metrics_port_names_the_flag_to_change() {
    let mut first = serve("127.0.0.1:0")
        .spawn()
        .expect("the first server starts");
    let mut lines = BufReader::new(first.stdout.take().expect("stdout")).lines();
    let listening = lines.next().expect("a line").expect("text");
    assert!(listening.starts_with("listening on "), "{listening}");
    let metrics_line = lines.next().expect("a line").expect("text");
    let taken = metrics_line
        .strip_prefix("metrics on http://")
        .and_then(|rest| rest.strip_suffix("/metrics"))
        .unwrap_or_else(|| panic!("no metrics address in {metrics_line:?}"))
        .to_owned();

    // The second server is given the address the first one holds.
    let mut second = serve(&taken).spawn().expect("the second server starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = second.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = second.kill();
            let _ = first.kill();
            panic!("the second server kept running on a taken metrics address");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    second
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr is text");
    let _ = first.kill();
    let _ = first.wait();

    assert!(!status.success(), "the second server must fail: {status}");
    let line = stderr
        .lines()
        .find(|l| l.contains("cannot serve metrics"))
        .unwrap_or_else(|| panic!("no metrics error in the second server's stderr:\n{stderr}"));
    assert!(
        line.starts_with(&format!("omweso serve: cannot serve metrics on {taken}: ")),
        "{line}"
    );
    assert!(line.contains("--metrics-addr"), "the flag is named: {line}");
    assert!(
        line.contains("OMWESO_METRICS_ADDR"),
        "the variable is named: {line}"
    );
    assert!(
        line.contains("--metrics-addr off"),
        "turning it off is offered: {line}"
    );
}
