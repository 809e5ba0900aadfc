//! `fairdice roll` (work in progress on the notation branch).

/// Flags of `fairdice roll`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The dice expression.
    pub expression: String,
}

/// Runs the command.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not wired yet")
}
