//! [`Server`]: binds an address, serves the app until Ctrl-C, and can open the
//! user's browser on it.
//!
//! # Design decisions
//! The accept loop is hyper's, configured for a server that anyone on the machine
//! (or the network, with `--host`) can reach: a client has
//! [`Limits::header_read_timeout`](crate::Limits::header_read_timeout) to send a
//! request's headers, and as long again to start its next request on a kept-alive
//! connection, so slow or idle connections are closed; at most
//! [`Limits::max_connections`](crate::Limits::max_connections) are served at once,
//! well below the usual limit of 1,024 open files, so the server can always
//! accept again once one closes.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use thiserror::Error;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::Config;

/// How long requests in flight may take to finish once the server is stopping.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Why the server could not run.
#[derive(Debug, Error)]
pub enum ServeError {
    /// The address could not be bound (in use, or not this machine's).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why not.
        source: io::Error,
    },
    /// The server stopped with an I/O error.
    #[error("the server stopped: {0}")]
    Serve(#[from] io::Error),
}

/// A bound, not yet running server.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    config: Config,
}

impl Server {
    /// Binds `addr` (port 0 picks a free port; see [`Server::local_addr`]). On a
    /// loopback address only requests addressed to a local name are answered.
    ///
    /// # Errors
    /// [`ServeError::Bind`] when the address cannot be bound.
    pub async fn bind(addr: SocketAddr, mut config: Config) -> Result<Server, ServeError> {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        if addr.ip().is_loopback() && config.allowed_hosts.is_none() {
            config.allowed_hosts = Some(
                ["localhost", "127.0.0.1", "[::1]"]
                    .map(String::from)
                    .to_vec(),
            );
        }
        Ok(Server { listener, config })
    }

    /// The address actually bound.
    ///
    /// # Errors
    /// If the operating system cannot say.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The URL of the app's home page.
    ///
    /// # Errors
    /// As [`Server::local_addr`].
    pub fn url(&self) -> io::Result<String> {
        let addr = self.local_addr()?;
        Ok(if addr.ip().is_unspecified() {
            format!("http://localhost:{}/", addr.port())
        } else {
            format!("http://{addr}/")
        })
    }

    /// Serves until Ctrl-C (or SIGTERM), then finishes the requests in flight.
    ///
    /// # Errors
    /// [`ServeError::Serve`] if serving fails.
    pub async fn run(self) -> Result<(), ServeError> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `stop` resolves, then finishes the requests in flight (for
    /// at most ten seconds).
    ///
    /// # Errors
    /// [`ServeError::Serve`] if serving fails.
    pub async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()>,
    ) -> Result<(), ServeError> {
        let limits = self.config.limits.clone();
        let (app, computer) = crate::app(self.config);
        let service = TowerToHyperService::new(app);
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(limits.header_read_timeout);
        let connections = Arc::new(Semaphore::new(limits.max_connections.max(1)));
        let graceful = GracefulShutdown::new();
        tokio::pin!(stop);
        loop {
            let permit = tokio::select! {
                permit = connections.clone().acquire_owned() => permit,
                () = &mut stop => break,
            };
            let Ok(permit) = permit else { break };
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                () = &mut stop => break,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors or a connection reset before it was
                // accepted: wait a moment and accept again.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            let connection = http.serve_connection(TokioIo::new(stream), service.clone());
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                // A client that misbehaves or goes away ends only its connection.
                let _ = connection.await;
                drop(permit);
            });
        }
        // Computations in flight are stopped (their requests answer at once),
        // then the connections are given a moment to send what they have.
        computer.shut_down();
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
        Ok(())
    }
}

/// Binds `addr` with the default [`Config`], opens the browser if `open`, and
/// serves until Ctrl-C.
///
/// # Errors
/// As [`Server::bind`] and [`Server::run`].
pub async fn serve(addr: SocketAddr, open: bool) -> Result<(), ServeError> {
    let server = Server::bind(addr, Config::default()).await?;
    if open {
        // Best effort: the URL is also printed by the command.
        let _ = open_browser(&server.url()?);
    }
    server.run().await
}

/// Opens `url` in the user's default browser.
///
/// # Errors
/// If the platform's opener cannot be started.
pub fn open_browser(url: &str) -> io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(target_os = "windows") {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
