//! The settings of `omweso serve`, each a flag and an `OMWESO_*` environment variable.

use std::net::SocketAddr;

#[derive(Clone, Debug, clap::Args)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "OMWESO_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Database: an SQLite file (created if missing), `sqlite::memory:`, or `postgres://...`.
    /// Also read from `DATABASE_URL` when `OMWESO_DATABASE_URL` is not set.
    #[arg(
        long,
        env = "OMWESO_DATABASE_URL",
        default_value_t = default_database_url(),
        hide_env_values = true,
        hide_default_value = true
    )]
    pub database_url: String,
    /// Origins allowed to open game sockets from a browser, besides the server's own
    /// (e.g. https://omweso.example.org). Repeat or separate with commas.
    #[arg(long, env = "OMWESO_PUBLIC_ORIGIN", value_delimiter = ',')]
    pub public_origin: Vec<String>,
    /// Client messages a connection may send per second (a burst of twice as many is
    /// allowed).
    #[arg(long, env = "OMWESO_RATE_LIMIT", default_value_t = 20)]
    pub rate_limit: u32,
    /// Where to serve Prometheus metrics (`GET /metrics`), apart from the public port;
    /// `off` to serve none.
    #[arg(long, env = "OMWESO_METRICS_ADDR", default_value = "127.0.0.1:9091")]
    pub metrics_addr: String,
    /// Log format: `text` or `json`.
    #[arg(long, env = "OMWESO_LOG_FORMAT", default_value = "text")]
    pub log_format: String,
    /// Log level filter (tracing's syntax, e.g. `info` or `omweso=debug`).
    #[arg(long, env = "OMWESO_LOG", default_value = "info")]
    pub log_level: String,
}

impl ServeConfig {
    /// The metrics address, `None` when off.
    pub fn metrics(&self) -> Result<Option<SocketAddr>, String> {
        match self.metrics_addr.as_str() {
            "off" | "" => Ok(None),
            addr => addr.parse().map(Some).map_err(|_| {
                format!("metrics address {addr:?} is not an address like 127.0.0.1:9091 (or off)")
            }),
        }
    }

    /// Settings for tests and embedding: port 0 on loopback, an in-memory database.
    #[must_use]
    pub fn for_tests(database_url: &str) -> ServeConfig {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url: database_url.to_owned(),
            public_origin: Vec::new(),
            // Test clients play as fast as the server answers.
            rate_limit: 200,
            metrics_addr: "off".into(),
            log_format: "text".into(),
            log_level: "info".into(),
        }
    }
}

/// `DATABASE_URL` (the protocol's name for it), else an SQLite file in the working directory.
fn default_database_url() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| "sqlite://omweso.db".to_owned())
}
