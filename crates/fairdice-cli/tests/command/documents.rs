//! Every `$ fairdice …` line of the README and of `docs/*.md` runs as written,
//! from a shell as a reader would paste it, and prints what the document shows
//! under it: each line shown appears in the output, in order (a line of `…`
//! stands for lines left out). A command shown failing (an error under it) must
//! fail; any other must succeed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command a document shows, with the lines shown under it.
#[derive(Debug)]
struct Shown {
    place: String,
    command: String,
    output: Vec<String>,
}

/// The `$ fairdice` lines of the fenced blocks of `text`, each with the lines
/// after it up to the next command or the end of the block.
fn shown_commands(name: &str, text: &str) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    let (mut fenced, mut current): (bool, Option<Shown>) = (false, None);
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            shown.extend(current.take());
            continue;
        }
        if !fenced {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            shown.extend(current.take());
            if command.starts_with("fairdice ") {
                current = Some(Shown {
                    place: format!("{name}:{}", number + 1),
                    command: strip_comment(command).to_string(),
                    output: Vec::new(),
                });
            }
        } else if let Some(current) = &mut current {
            current.output.push(line.trim_end().to_string());
        }
    }
    shown
}

/// The command without a trailing `   # comment` (two spaces or more before it,
/// so a `#` inside an expression such as `6#(4d6kh3)` stays).
fn strip_comment(command: &str) -> &str {
    match command.find("  #") {
        Some(at) => command[..at].trim_end(),
        None => command.trim_end(),
    }
}

/// Whether a shown line stands for lines left out.
fn elided(line: &str) -> bool {
    matches!(line.trim(), "…" | "..." | "")
}

/// Runs one shown command in `dir` with the built `fairdice` first on the path;
/// its exit success and its output, standard error after standard output.
fn run(shown: &Shown, dir: &Path) -> (bool, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_fairdice"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("a PATH");
    let output = Command::new("sh")
        .arg("-c")
        .arg(&shown.command)
        .current_dir(dir)
        .env("PATH", path)
        .env("COLUMNS", "100")
        .output()
        .expect("sh runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// Whether an output line is the shown one; a `…` inside a shown line stands
/// for a part left out there.
fn matches(shown: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = shown.split('…').collect();
    if pieces.len() == 1 {
        return shown == actual;
    }
    let (first, last) = (pieces[0].trim_end(), pieces[pieces.len() - 1].trim_start());
    if !actual.starts_with(first) || !actual[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece.trim()) {
            Some(at) => rest = &rest[at + piece.trim().len()..],
            None => return false,
        }
    }
    true
}

/// The shown lines missing from `actual`, taken in order.
fn missing(shown: &[String], actual: &str) -> Vec<String> {
    let lines: Vec<&str> = actual.lines().map(str::trim_end).collect();
    let mut at = 0;
    let mut missing = Vec::new();
    for line in shown.iter().filter(|l| !elided(l)) {
        match lines[at..].iter().position(|actual| matches(line, actual)) {
            Some(found) => at += found + 1,
            None => missing.push(line.clone()),
        }
    }
    missing
}

#[test]
fn every_command_in_the_documents_runs_as_written() {
    let root = root();
    let mut documents = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    documents.extend(docs);
    let mut commands = Vec::new();
    for path in &documents {
        let text = std::fs::read_to_string(path).expect("a document");
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        commands.extend(shown_commands(&name, &text));
    }
    assert!(commands.len() >= 30, "{} commands found", commands.len());
    // The commands run where the documents' relative paths resolve, and what
    // they write (`--save game.json`, `--plot tune.png`) lands in a folder of
    // their own.
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::os::unix::fs::symlink(root.join("docs"), dir.path().join("docs")).expect("a link");
    // Two at a time: the slowest (an exact sweep of tgm3) takes seconds.
    let results: Vec<(usize, bool, String)> = std::thread::scope(|scope| {
        let (even, odd): (Vec<_>, Vec<_>) =
            commands.iter().enumerate().partition(|(i, _)| i % 2 == 0);
        let lanes: Vec<_> = [even, odd]
            .into_iter()
            .map(|lane| {
                let dir = dir.path();
                scope.spawn(move || {
                    lane.into_iter()
                        .map(|(i, shown)| {
                            let (ok, text) = run(shown, dir);
                            (i, ok, text)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        lanes
            .into_iter()
            .flat_map(|lane| lane.join().expect("a lane"))
            .collect()
    });
    let mut failures = Vec::new();
    for (i, ok, text) in results {
        let shown = &commands[i];
        let shows_error = shown.output.iter().any(|l| l.starts_with("error:"));
        if ok == shows_error {
            failures.push(format!(
                "{}: `{}` {} but the document shows {}\n{text}",
                shown.place,
                shown.command,
                if ok { "succeeded" } else { "failed" },
                if shows_error { "an error" } else { "no error" }
            ));
        }
        let absent = missing(&shown.output, &text);
        if !absent.is_empty() {
            failures.push(format!(
                "{}: `{}` does not print these shown lines:\n{}\n--- it printed:\n{text}",
                shown.place,
                shown.command,
                absent.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn shown_output_is_matched_line_by_line_in_order() {
    let shown: Vec<String> = ["a", "…", "c"].map(String::from).to_vec();
    assert!(missing(&shown, "a\nb\nc\n").is_empty());
    assert_eq!(missing(&shown, "c\nb\na\n"), vec!["c".to_string()]);
    assert!(matches(
        "15 ← [5 5]  …  kh1 [15]",
        "15 ← [5 5]  [1 2]  [3 4]  kh1 [15]"
    ));
    assert!(!matches(
        "15 ← [5 5]  …  kh1 [15]",
        "15 ← [5 5]  [1 2]  kh1 [16]"
    ));
    assert_eq!(
        strip_comment("fairdice prd 0.25     # C = 0.08"),
        "fairdice prd 0.25"
    );
    assert_eq!(
        strip_comment("fairdice dist '6#(4d6kh3)kh1'"),
        "fairdice dist '6#(4d6kh3)kh1'"
    );
    let commands = shown_commands(
        "x.md",
        "```text\n$ fairdice dist 3d6\nmean 10.5\n$ ls\n```\n",
    );
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0].output, vec!["mean 10.5".to_string()]);
}

/// The Dice page's notation help (`web/js/notation.js`) as the engine's list of
/// forms writes it.
fn notation_module() -> String {
    let forms = serde_json::to_string_pretty(fairdice::dice::notation::help::FORMS)
        .expect("the forms serialize");
    format!(
        "// The notation at a glance, as the Dice page's help shows it. Generated from the\n\
         // engine's list of forms (crates/fairdice/src/dice/notation/help.rs), which the\n\
         // command line's --help shows too; a test checks it. Do not edit: after changing\n\
         // the list, run FAIRDICE_WRITE_GENERATED=1 cargo test -p fairdice-cli --test command -- generated\n\
         export const FORMS = {forms};\n"
    )
}

/// The randomizer families as the site's forms and help list them
/// (`web/js/families.js`), from the engine's registry.
fn families_module() -> String {
    let families: Vec<serde_json::Value> = fairdice::randomizer::family::all()
        .iter()
        .map(|family| {
            serde_json::json!({
                "name": family.name,
                "summary": family.summary,
                "usage": family.usage,
                "example": family.example,
                "tunable": family.is_tunable(),
                "tuned": family.tuned().map(|p| p.key).collect::<Vec<_>>(),
            })
        })
        .collect();
    let families = serde_json::to_string_pretty(&families).expect("the families serialize");
    format!(
        "// The randomizer families, as the Randomizers page's help and the Tuner page's\n\
         // systems list them. Generated from the engine's registry\n\
         // (crates/fairdice/src/randomizer/family.rs), which spec parsing, --help and the\n\
         // tuner read too; a test checks it. Do not edit: after changing a family, run\n\
         // FAIRDICE_WRITE_GENERATED=1 cargo test -p fairdice-cli --test command -- generated\n\
         export const FAMILIES = {families};\n"
    )
}

/// Asserts that the generated file `path` (from the repository's root) holds
/// `expected`, writing it first when `FAIRDICE_WRITE_GENERATED` is set.
fn generated(path: &str, expected: &str, what: &str) {
    let file = root().join(path);
    if std::env::var_os("FAIRDICE_WRITE_GENERATED").is_some() {
        std::fs::write(&file, expected).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    let found = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        found == expected,
        "{path} is not {what}; run \
         FAIRDICE_WRITE_GENERATED=1 cargo test -p fairdice-cli --test command -- generated"
    );
}

#[test]
fn generated_notation_help_is_the_engines_list_of_forms() {
    generated(
        "web/js/notation.js",
        &notation_module(),
        "the engine's list of forms",
    );
}

#[test]
fn generated_family_lists_are_the_engines_registry() {
    generated(
        "web/js/families.js",
        &families_module(),
        "the engine's registry of families",
    );
}
