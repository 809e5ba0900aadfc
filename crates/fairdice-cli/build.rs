//! Links this package's executables with `first-call.ld` on Linux: the code a
//! fresh process runs for its first evaluations lies together, so it is mapped
//! in a few page faults instead of one per scattered function (a first `3d6`
//! took 25–30 µs, 20 µs with the script). `scripts/first-call-layout.sh` writes
//! the script; `FAIRDICE_LINK_LAYOUT=0` links without it. The benchmark crate
//! builds with this same file.

use std::env;
use std::fs;
use std::path::Path;

/// The linker script (an `INSERT BEFORE .text` addition to the default layout,
/// which GNU ld and LLD both take).
const SCRIPT: &str = include_str!("first-call.ld");

fn main() {
    println!("cargo:rerun-if-env-changed=FAIRDICE_LINK_LAYOUT");
    let wanted = env::var("FAIRDICE_LINK_LAYOUT").map_or(true, |v| v != "0");
    let linux = env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if !(wanted && linux) {
        return;
    }
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let path = Path::new(&out).join("first-call.ld");
    fs::write(&path, SCRIPT).expect("the build directory is writable");
    println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", path.display());
}
