//! [`Server`]: binds an address, serves the app until Ctrl-C, and can open the
//! user's browser on it.

use std::io;
use std::net::SocketAddr;

use thiserror::Error;
use tokio::net::TcpListener;

use crate::{Config, router};

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
        axum::serve(self.listener, router(self.config))
            .with_graceful_shutdown(shutdown_signal())
            .await?;
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
