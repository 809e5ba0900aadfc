//! What every module runs the command with: the built binary, its output as text,
//! and the assertions on its exit status that most tests start from.

use std::process::{Command, Output};

/// The built `fairdice` run with `args`.
pub fn fairdice(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(args)
        .output()
        .expect("the fairdice binary runs")
}

/// A run's standard output.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

/// A run's standard error.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 output")
}

/// Stdout of a run that must succeed.
pub fn ok(args: &[&str]) -> String {
    let output = fairdice(args);
    assert!(
        output.status.success(),
        "fairdice {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout(&output)
}

/// The JSON document a run that must succeed prints.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("valid JSON")
}

/// Stderr of a run that must fail with exit status `status`.
pub fn fails(args: &[&str], status: i32) -> String {
    let output = fairdice(args);
    assert_eq!(
        output.status.code(),
        Some(status),
        "fairdice {args:?}: {output:?}"
    );
    stderr(&output)
}
