//! `fairdice dist` (work in progress on the notation branch).

/// Flags of `fairdice dist`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The dice expression.
    pub expression: String,
}

/// Runs the command.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not wired yet")
}
