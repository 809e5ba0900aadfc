//! The command lines the use-case layer writes for a request (a too-large
//! request's suggestion says "the same as `fairdice dist 100000d6 --runs 200`", in
//! the terminal, on the web pages and in Python) are commands of this binary that
//! ask for that very request: each request below sets every field its command line
//! can carry, and its command, split as a shell splits it and parsed here, must give
//! the same request document. A flag renamed or added here fails this test rather
//! than silently breaking what every front-end suggests.

use std::ffi::OsString;
use std::io::Write;

use clap::Parser;
use fairdice::analysis::seats::Game;
use fairdice::battle::{Rule, Rules};
use fairdice::contest::{Pairing, TieRule};
use fairdice::dice::notation::dialect::Dialect;
use fairdice_api::analyze::AnalyzeRequest;
use fairdice_api::contest::ContestRequest;
use fairdice_api::dist::DistRequest;
use fairdice_api::risk::RiskRequest;
use fairdice_api::seats::SeatsRequest;
use fairdice_api::tune::TuneRequest;
use serde::Serialize;

use crate::commands::Command;
use crate::{Cli, commands, expressions_last};

/// `command` split as a shell splits it and read as this binary reads it, a
/// `GAME.json` in it standing for `game`'s file (kept until the request is read).
fn parsed(command: &str, game: Option<&Game>) -> (Command, Option<tempfile::NamedTempFile>) {
    let file = game.map(|game| {
        let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
        let text = serde_json::to_string(game).expect("a game document");
        file.write_all(text.as_bytes()).expect("written");
        file
    });
    let mut words = shlex::split(command).unwrap_or_else(|| panic!("not shell words: {command}"));
    if let Some(file) = &file {
        for word in &mut words {
            if word == "GAME.json" {
                *word = file.path().display().to_string();
            }
        }
    }
    let args = expressions_last(words.into_iter().map(OsString::from).collect());
    let cli =
        Cli::try_parse_from(args).unwrap_or_else(|e| panic!("`{command}` is not a command:\n{e}"));
    (cli.command, file)
}

/// Asserts that `read` is the request `written` is.
fn same(written: &impl Serialize, read: &impl Serialize, command: &str) {
    let written = serde_json::to_value(written).expect("a request document");
    let read = serde_json::to_value(read).expect("a request document");
    assert_eq!(written, read, "`{command}`");
}

fn game() -> Game {
    Game::from_json(
        r#"{"name": "sixes and eights", "players": ["six", "eight"], "turns": true,
            "payoffs": {"6": [1, 0], "8": [0, 2]}}"#,
    )
    .expect("a game")
}

#[test]
fn dist_commands_ask_for_their_request() {
    for request in [
        DistRequest {
            expression: "[x = 3d6] x + x >= 21".to_string(),
            runs: Some(5_000),
            seed: 7,
            explode_depth: 4,
            dialect: Dialect::Roll20,
        },
        DistRequest::new("-d6+4").estimated(200, 9),
        DistRequest::new("2d6 as {\"it's a miss\", \"hit\"}"),
    ] {
        let command = request.command();
        let (Command::Dist(args), _game) = parsed(&command, None) else {
            panic!("`{command}` is not dist")
        };
        same(&vec![request], &commands::dist::requests(&args), &command);
    }
}

#[test]
fn contest_commands_ask_for_their_request() {
    let request = ContestRequest {
        a: "5d6".to_string(),
        b: "3d6 + 2d8".to_string(),
        pairing: Pairing::Unsorted,
        ties: TieRule::Reroll,
        runs: Some(1_000),
        seed: 11,
        dialect: Dialect::Foundry,
    };
    let command = request.command();
    let (Command::Contest(args), _game) = parsed(&command, None) else {
        panic!("`{command}` is not contest")
    };
    same(&request, &commands::contest::request(&args), &command);
}

#[test]
fn risk_commands_ask_for_their_request() {
    let request = RiskRequest {
        per_roll: true,
        table: Some(4),
        float: true,
        runs: Some(2_000),
        seed: 5,
        ..RiskRequest::new(10, 8).with_rules(Rules {
            rule: Rule::Simple,
            faces: 8,
            attacker_dice: 2,
            defender_dice: 3,
        })
    };
    let command = request.command();
    let (Command::Risk(args), _game) = parsed(&command, None) else {
        panic!("`{command}` is not risk")
    };
    same(
        &request,
        &commands::risk::request(&args).expect("a request"),
        &command,
    );
}

#[test]
fn analyze_commands_ask_for_their_request() {
    for request in [
        AnalyzeRequest {
            runs: Some(300),
            seed: 3,
            max_states: Some(5_000),
            droughts: false,
            ..AnalyzeRequest::new("deck(values=6, copies=2)", 40)
        },
        AnalyzeRequest {
            exact: true,
            ..AnalyzeRequest::new("dice(base=2d6)", 12)
        },
    ] {
        let command = request.command();
        let (Command::Analyze(args), _game) = parsed(&command, None) else {
            panic!("`{command}` is not analyze")
        };
        same(&request, &commands::analyze::request(&args), &command);
    }
}

#[test]
fn seats_commands_ask_for_their_request() {
    let request = SeatsRequest {
        runs: Some(3_000),
        seed: 5,
        max_states: Some(20_000),
        shares: vec![0.25, 0.5],
        droughts: false,
        ..SeatsRequest::new(game(), "deck(base=2d6, copies=1)", 30)
    };
    let command = request.command();
    let (Command::Seats(args), _game) = parsed(&command, Some(&request.game)) else {
        panic!("`{command}` is not seats")
    };
    same(
        &request,
        &commands::seats::request(&args).expect("a request"),
        &command,
    );
}

#[test]
fn tune_commands_ask_for_their_request() {
    let request = TuneRequest {
        min_entropy: 0.85,
        fairness: Some("seat_spread".to_string()),
        game: Some(game()),
        systems: vec!["deck".to_string(), "fair".to_string()],
        grids: vec!["dynamic(decrease=0.30..0.50 step 0.05)".to_string()],
        runs: Some(400),
        seed: 4,
        max_states: Some(9_000),
        all: true,
        ..TuneRequest::new(6, "20..40")
    };
    let weighted = TuneRequest {
        values: None,
        base: Some("2d6".to_string()),
        exact: true,
        ..TuneRequest::new(6, "20:1,30:2,40:1")
    };
    for request in [request, weighted] {
        let command = request.command();
        let (Command::Tune(args), _game) = parsed(&command, request.game.as_ref()) else {
            panic!("`{command}` is not tune")
        };
        same(
            &request,
            &commands::tune::request(&args).expect("a request"),
            &command,
        );
    }
}
