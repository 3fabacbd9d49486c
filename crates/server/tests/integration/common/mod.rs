//! A real server on port 0 in the test's process, with the clients of
//! [`omweso_testkit::Remote`] (through `Deref`), for the server's integration tests.

pub mod probe;

use std::time::Duration;

use omweso_server::config::ServeConfig;
pub use omweso_testkit::{postgres_admin_url, Client, FreshPostgres, Remote};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub struct TestServer {
    remote: Remote,
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
    pub async fn start_at(bind: &str, config: ServeConfig) -> TestServer {
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
            stop: Some(stop),
            task: Some(task),
        }
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(10), task)
                .await
                .expect("the server stops within 10 s")
                .unwrap()
                .unwrap();
        }
    }
}
