//! The settings of `omweso serve`, each a flag and an `OMWESO_*` environment variable.

use std::net::SocketAddr;

#[derive(Clone, Debug, clap::Args)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "OMWESO_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Database: an SQLite file (created if missing), `sqlite::memory:`, or `postgres://...`.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://omweso.db",
        hide_env_values = true
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
    /// Log format: `text` or `json`.
    #[arg(long, env = "OMWESO_LOG_FORMAT", default_value = "text")]
    pub log_format: String,
    /// Log level filter (tracing's syntax, e.g. `info` or `omweso=debug`).
    #[arg(long, env = "OMWESO_LOG", default_value = "info")]
    pub log_level: String,
}

impl ServeConfig {
    /// Settings for tests and embedding: port 0 on loopback, an in-memory database.
    #[must_use]
    pub fn for_tests(database_url: &str) -> ServeConfig {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url: database_url.to_owned(),
            public_origin: Vec::new(),
            rate_limit: 20,
            log_format: "text".into(),
            log_level: "info".into(),
        }
    }
}
