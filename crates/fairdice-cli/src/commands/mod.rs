//! One module per subcommand: its flags (`Args`) and its `run` function.

pub mod analyze;
pub mod contest;
pub mod dist;
pub mod next;
pub mod prd;
pub mod risk;
pub mod roll;
pub mod sample;
pub mod seats;
pub mod serve;
pub mod state;
pub mod tune;

/// Every randomizer family with its usage and what it is, from the library's one
/// catalogue: the `--help` of the commands that take a spec.
pub fn spec_help() -> String {
    use fairdice::randomizer::family;
    let mut help = String::from("Randomizer specs:\n");
    for f in family::all() {
        help.push_str(&format!("  {}\n      {}\n", f.usage, f.summary));
    }
    help
}
