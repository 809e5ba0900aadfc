//! One module per subcommand: its flags (`Args`) and its `run` function.

pub mod dist;
pub mod next;
pub mod prd;
pub mod roll;
pub mod sample;
pub mod state;
