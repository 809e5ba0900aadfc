//! One module per subcommand: its flags (`Args`) and its `run` function.

pub mod dist;
pub mod roll;
