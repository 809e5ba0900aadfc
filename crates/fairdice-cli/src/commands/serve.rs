//! `fairdice serve`: the local web app — the same numbers and charts as the
//! command line, in the browser, on this machine.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

/// Flags of `fairdice serve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Open the printed address in a browser. Every page keeps its inputs in the \
URL, so a result can be shared as a link. The pages compute on this server, or in the \
browser when the command is built with the WebAssembly module (--features embed-wasm). \
For scripts, /api/NAME serves every command's \
--json document (GET with the flags as parameters, /api/dist?expr=3d6, or POST with the \
request's JSON) and /chart/NAME.svg|png its chart."
)]
pub struct Args {
    /// The port to listen on (0 picks a free one).
    #[arg(long, short = 'p', default_value_t = 8077)]
    pub port: u16,
    /// The address to listen on; anything but a loopback address lets other
    /// machines use the app.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the app in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Seconds a request's computations may take before they are stopped.
    #[arg(long, default_value_t = 5.0, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: f64,
    /// The server's memory, in MiB, past which running computations are stopped
    /// (Linux; each computation also plans at most a quarter of it).
    #[arg(long, default_value_t = 4096, value_name = "MIB", value_parser = clap::value_parser!(u64).range(64..=1 << 30))]
    pub max_memory: u64,
    /// Serve the pages of this built site (`./scripts/build-site.sh` writes
    /// `target/site`) instead of those compiled in.
    #[arg(long, value_name = "DIR", conflicts_with = "write_site")]
    pub site: Option<PathBuf>,
    /// Write the pages this command serves into DIR, for any static file host,
    /// and exit (`./scripts/build-site.sh` adds the WebAssembly module they
    /// compute with when no server answers them).
    #[arg(long, value_name = "DIR")]
    pub write_site: Option<PathBuf>,
}

/// A positive number of seconds, at most a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "expected seconds between 0 and 86400, not `{text}`"
        )),
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(folder) = &args.write_site {
        let files = fairdice_web::write_site(folder)
            .with_context(|| format!("could not write the site into {}", folder.display()))?;
        println!("wrote {files} files of the site into {}", folder.display());
        return Ok(());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Room for the recursive parser and evaluator on the blocking threads.
        .thread_stack_size(8 * 1024 * 1024)
        .build()
        .context("could not start the async runtime")?;
    runtime.block_on(async {
        let addr = SocketAddr::new(args.host, args.port);
        let config = fairdice_web::Config {
            limits: fairdice_web::Limits {
                time_limit: Duration::from_secs_f64(args.time_limit),
                max_memory: args.max_memory << 20,
                job_memory: (args.max_memory << 20) / 4,
                ..fairdice_web::Limits::default()
            },
            site: args.site.clone(),
            ..fairdice_web::Config::default()
        };
        if let Some(site) = &args.site
            && !site.join("index.html").is_file()
        {
            anyhow::bail!(
                "{} holds no built site (no index.html); build it with ./scripts/build-site.sh",
                site.display()
            );
        }
        let server = fairdice_web::Server::bind(addr, config).await?;
        let url = server.url()?;
        println!("fairdice is serving on {url}  (Ctrl-C stops it)");
        if !args.host.is_loopback() {
            eprintln!(
                "warning: listening on {}: other machines can reach this app",
                args.host
            );
        }
        if args.open && fairdice_web::open_browser(&url).is_err() {
            eprintln!("could not open a browser; open {url} yourself");
        }
        server.run().await?;
        Ok::<(), anyhow::Error>(())
    })?;
    // A computation that has not seen its cancellation yet does not keep the
    // process alive: the blocking threads are given a moment, then left.
    runtime.shutdown_timeout(SHUTDOWN_WAIT);
    Ok(())
}

/// How long a stopping server waits for its blocking threads once it has
/// stopped serving.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(1);
