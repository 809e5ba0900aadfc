//! One module per subcommand: its flags (`Args`) and its `run` function.

pub mod analyze;
pub mod contest;
pub mod dist;
pub mod next;
pub mod prd;
pub mod risk;
pub mod roll;
pub mod sample;
pub mod serve;
pub mod state;
pub mod tune;

use fairdice::dice::notation::NotationError;

use crate::failure::UserError;

/// Turns a notation error into the user-facing error, with the expression and a
/// caret under the part at fault, and a hint where one helps.
pub fn notation_failure(error: NotationError, source: &str) -> anyhow::Error {
    match error {
        NotationError::TooBig(_) => UserError::too_big(format!(
            "{error}\nhint: estimate it by Monte Carlo instead, e.g. `fairdice dist '{source}' --runs 1000000`"
        )),
        _ => UserError::input(error.render(source)),
    }
}

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
