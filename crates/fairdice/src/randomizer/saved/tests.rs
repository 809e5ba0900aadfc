//! Saved sessions: exact continuation, the check, the range checks, version 1,
//! serde embedding and the size bound.

use serde_json::{Value, json};

use super::*;
use crate::randomizer::state::MAX_SESSION_BYTES;
use crate::randomizer::{MAX_LEAD, MAX_SPEC_BYTES, RestoreError, SpecError, StateSpace};

fn saved_after(spec: &str, draws: usize) -> (Session, String) {
    let mut session = Session::seeded(spec, 9).expect("valid");
    for _ in 0..draws {
        session.draw();
    }
    let json = session.to_json();
    (session, json)
}

/// The session with `edit` applied and its check recomputed, as a tool that
/// writes valid checks would: the consistency checks alone must judge it.
fn forged(json: &str, edit: impl FnOnce(&mut Value)) -> Result<Session, StateError> {
    let mut value: Value = serde_json::from_str(json).expect("json");
    edit(&mut value);
    if let Ok(mut document) = serde_json::from_value::<Document>(value.clone())
        && document.check.is_some()
    {
        document.check = Some(document.computed_check());
        value = serde_json::to_value(&document).expect("serializes");
    }
    Session::from_json(&value.to_string())
}

/// The session with `edit` applied and the check left as it was saved.
fn edited(json: &str, edit: impl FnOnce(&mut Value)) -> Result<Session, StateError> {
    let mut value: Value = serde_json::from_str(json).expect("json");
    edit(&mut value);
    Session::from_json(&value.to_string())
}

fn assert_checksum_mismatch(result: Result<Session, StateError>) {
    let error = result.expect_err("a changed session");
    assert!(matches!(error, StateError::Checksum { .. }), "{error}");
    assert!(
        error.to_string().contains("changed after it was saved"),
        "{error}"
    );
}

#[test]
fn resuming_continues_every_randomizer_exactly() {
    for spec in [
        "dice(base=2d6)",
        "deck(values=6, copies=2, refill_below=4)",
        "deck(base=10d10)",
        "bag(min=1, max=8, sets=1)",
        "dynamic(base=2d6, decrease=0.3)",
        "fair(base=2d6, tightness=1)",
        "prd(p=0.2)",
        "nes",
        "tgm2",
        "tgm3",
        "bag7",
    ] {
        let (mut uninterrupted, json) = saved_after(spec, 13);
        assert!(json.contains("\"check\": \"crc32:"), "{json}");
        let mut resumed = Session::from_json(&json).expect("loads");
        assert_eq!(resumed, uninterrupted, "{spec}");
        let a: Vec<usize> = (0..50).map(|_| uninterrupted.draw()).collect();
        let b: Vec<usize> = (0..50).map(|_| resumed.draw()).collect();
        assert_eq!(a, b, "{spec}");
        assert_eq!(resumed.draws(), 63);
    }
}

#[test]
fn the_check_refuses_what_consistency_cannot_see() {
    // One generator digit changed.
    let (_, json) = saved_after("dynamic(values=6, decrease=0.355)", 4);
    let digit = |value: &mut Value| {
        let word = value["generator"]["state"][2]
            .as_str()
            .expect("hex")
            .to_string();
        let flipped = if word.ends_with('0') { "1" } else { "0" };
        value["generator"]["state"][2] = json!(format!("{}{flipped}", &word[..15]));
    };
    assert!(forged(&json, digit).is_ok(), "a possible generator");
    assert_checksum_mismatch(edited(&json, digit));
    // A compatible spec swapped.
    let swap = |value: &mut Value| {
        value["spec"] = json!("dynamic(values=6, decrease=0.356)");
    };
    assert!(forged(&json, swap).is_ok(), "a possible spec");
    assert_checksum_mismatch(edited(&json, swap));
    // A deck's drawn cards cut from the end of its state.
    let (deck, json) = saved_after("deck(values=6, copies=1)", 2);
    let cut = |value: &mut Value| {
        let state = value["state"].as_array_mut().expect("a list");
        state.truncate(6 + 4);
    };
    assert_ne!(forged(&json, cut).expect("a possible deck"), deck);
    assert_checksum_mismatch(edited(&json, cut));
    // The draws counter, and reformatting, which changes no value.
    assert_checksum_mismatch(edited(&json, |v| v["draws"] = json!(3)));
    let compact = serde_json::to_string(&serde_json::from_str::<Value>(&json).expect("json"))
        .expect("serializes");
    assert_eq!(Session::from_json(&compact).expect("same values"), deck);
}

#[test]
fn rejects_what_it_cannot_trust() {
    let (_, json) = saved_after("deck(values=6, copies=1, refill_below=1)", 2);
    assert!(matches!(
        Session::from_json("{not json"),
        Err(StateError::Malformed(_))
    ));
    assert!(matches!(
        Session::from_json("[1, 2]"),
        Err(StateError::Malformed(_))
    ));
    assert!(matches!(
        forged(&json, |v| v["format"] = json!("fairdice-results")),
        Err(StateError::WrongFormat { .. })
    ));
    let newer = forged(&json, |v| v["version"] = json!(3)).expect_err("newer");
    assert!(newer.to_string().contains("newer fairdice"), "{newer}");
    let older = forged(&json, |v| v["version"] = json!(0)).expect_err("older");
    assert!(older.to_string().contains("older fairdice"), "{older}");
    assert!(matches!(
        forged(&json, |v| v["extra"] = json!(1)),
        Err(StateError::Malformed(_))
    ));
    let spec = |text: &'static str| move |v: &mut Value| v["spec"] = json!(text);
    assert!(matches!(
        forged(&json, spec("deck(values=7, copies=1, refill_below=1)")),
        Err(StateError::State(
            RestoreError::WrongLength { .. } | RestoreError::Inconsistent { .. }
        ))
    ));
    assert!(matches!(
        forged(&json, spec("dek(values=6)")),
        Err(StateError::Spec(_))
    ));
    // A deck of one set cannot hold two 1s.
    assert!(matches!(
        forged(&json, |v| v["state"] = json!([2, 0, 0, 0, 0, 0, 0, 0])),
        Err(StateError::State(RestoreError::Inconsistent { .. }))
    ));
    assert!(matches!(
        forged(&json, |v| v["generator"]["algorithm"] = json!("pcg64")),
        Err(StateError::Generator(_))
    ));
}

#[test]
fn rejects_a_zero_or_garbled_generator() {
    let (_, json) = saved_after("prd(p=0.5)", 1);
    let zero = "0000000000000000";
    assert!(matches!(
        forged(&json, |v| v["generator"]["state"] =
            json!([zero, zero, zero, zero])),
        Err(StateError::Generator(_))
    ));
    for garbled in ["xyz", "+123456789abcdef", "0123456789abcdeg"] {
        assert!(matches!(
            forged(&json, |v| v["generator"]["state"][0] = json!(garbled)),
            Err(StateError::Generator(_))
        ));
    }
}

#[test]
fn version_1_sessions_still_load_with_every_other_check() {
    let (session, json) = saved_after("deck(values=6, copies=2, refill_below=4)", 5);
    let version_1 = |value: &mut Value| {
        value["version"] = json!(1);
        value.as_object_mut().expect("an object").remove("check");
    };
    assert_eq!(edited(&json, version_1).expect("a version 1 file"), session);
    let impossible = edited(&json, |v| {
        version_1(v);
        v["state"][0] = json!(9);
    });
    assert!(matches!(impossible, Err(StateError::State(_))));
    // A version 1 file never had a check; a version 2 file always has one.
    let error = edited(&json, |v| v["version"] = json!(1)).expect_err("a check");
    assert!(
        error.to_string().contains("version 1 session has no"),
        "{error}"
    );
    let unchecked = edited(&json, |v| {
        v.as_object_mut().expect("an object").remove("check");
    });
    let error = unchecked.expect_err("no check");
    assert!(
        error.to_string().contains("missing field `check`"),
        "{error}"
    );
    assert_checksum_mismatch(edited(&json, |v| v["check"] = json!("crc32:00000000")));
}

#[test]
fn loaded_numbers_are_checked_before_use() {
    let (_, json) = saved_after("dynamic(values=6, decrease=0.5)", 3);
    let error = forged(&json, |v| v["draws"] = json!(MAX_DRAWS + 1)).expect_err("draws");
    assert_eq!(
        error.to_string(),
        "`draws` is 9007199254740992; accepted: 0..=9007199254740991"
    );
    assert!(forged(&json, |v| v["draws"] = json!(u64::MAX)).is_err());
    // Leads that would size a table of powers: refused at once.
    let started = std::time::Instant::now();
    for lead in [1_000_000_000, i64::MAX] {
        let error = forged(&json, |v| v["state"][4] = json!(lead)).expect_err("lead");
        assert!(matches!(error, StateError::State(_)), "{error}");
        assert!(
            error.to_string().contains("accepted: a lead of 0..="),
            "{error}"
        );
    }
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    let at_limit = forged(&json, |v| v["state"] = json!([0, 0, 0, 0, MAX_LEAD, 0]));
    assert_eq!(
        at_limit.expect("at the limit").randomizer().state_key()[4],
        MAX_LEAD as i64
    );
    let error = forged(&json, |v| v["state"] = json!(vec![0; MAX_OUTCOMES + 1]))
        .expect_err("too many entries");
    assert!(
        error
            .to_string()
            .starts_with("`state` is a list of 1048577"),
        "{error}"
    );
    let long = format!("dice(base={})", "d6+".repeat(MAX_SPEC_BYTES));
    assert!(matches!(
        forged(&json, |v| v["spec"] = json!(long)),
        Err(StateError::Spec(SpecError::TooLong { .. }))
    ));
    // The counter stops at its limit, and what it saves loads.
    let mut full = forged(&json, |v| v["draws"] = json!(MAX_DRAWS)).expect("at the limit");
    full.draw();
    assert_eq!(full.draws(), MAX_DRAWS);
    assert_eq!(Session::from_json(&full.to_json()).expect("loads"), full);
}

/// Every single-byte substitution and every line removed, in sessions of each
/// kind: each variant is refused or reads as the very same session (whitespace),
/// never as another.
#[test]
fn corrupted_sessions_never_load_as_another() {
    let replacements = b"0123456789abcdef-x \",]}";
    let (mut tried, mut refused, mut same) = (0usize, 0usize, 0usize);
    for (spec, draws) in [
        ("deck(values=6, copies=1)", 2),
        ("deck(base=10d10, copies=1)", 40),
        ("dynamic(values=6, decrease=0.355)", 9),
        ("fair(base=2d6, tightness=1)", 7),
        ("prd(p=0.25)", 3),
        ("tgm2", 5),
        ("tgm3", 6),
        ("bag7", 3),
    ] {
        let (session, json) = saved_after(spec, draws);
        let mut variants: Vec<String> = Vec::new();
        for (at, &original) in json.as_bytes().iter().enumerate() {
            for &byte in replacements.iter().filter(|&&b| b != original) {
                let mut bytes = json.as_bytes().to_vec();
                bytes[at] = byte;
                variants.extend(String::from_utf8(bytes).ok());
            }
        }
        let lines: Vec<&str> = json.lines().collect();
        for cut in 0..lines.len() {
            let mut kept = lines.clone();
            kept.remove(cut);
            variants.push(kept.join("\n"));
        }
        for variant in &variants {
            tried += 1;
            match Session::from_json(variant) {
                Err(_) => refused += 1,
                Ok(loaded) if loaded == session => same += 1,
                Ok(loaded) => panic!("{spec}: accepted as another session:\n{variant}\n{loaded:?}"),
            }
        }
    }
    // Figures for the record (cargo test -- --nocapture).
    eprintln!("{tried} corrupted variants: {refused} refused, {same} the same session");
    assert!(tried > 40_000, "{tried}");
    assert!(refused > tried * 9 / 10, "{refused} of {tried}");
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct GameSave {
    level: u32,
    loot: Session,
    hits: Session,
}

#[test]
fn a_session_embeds_in_a_games_own_save() {
    let mut save = GameSave {
        level: 3,
        loot: Session::seeded("deck(values=6, copies=2)", 1).expect("valid"),
        hits: Session::seeded("prd(p=0.25)", 2).expect("valid"),
    };
    for _ in 0..5 {
        save.loot.draw();
        save.hits.draw();
    }
    let text = serde_json::to_string(&save).expect("serializes");
    let mut restored: GameSave = serde_json::from_str(&text).expect("deserializes");
    assert_eq!(restored, save);
    let a: Vec<usize> = (0..20).map(|_| save.loot.draw()).collect();
    let b: Vec<usize> = (0..20).map(|_| restored.loot.draw()).collect();
    assert_eq!(a, b);
    // Deserializing runs the loader's checks: an edit is refused.
    let mut value: Value = serde_json::from_str(&text).expect("json");
    value["hits"]["draws"] = json!(99);
    let error = serde_json::from_value::<GameSave>(value).expect_err("edited");
    assert!(
        error.to_string().contains("changed after it was saved"),
        "{error}"
    );
    // The embedded document is the file's: a session file reads as a field.
    let embedded = serde_json::to_value(&save.loot).expect("serializes");
    let file: Value = serde_json::from_str(&save.loot.to_json()).expect("json");
    assert_eq!(embedded, file);
}

#[test]
fn the_largest_session_fits_the_read_bound() {
    // Every field at its widest: the longest spec, all escaped; the most state
    // entries, each the widest i64.
    let widest = Document {
        format: FORMAT.into(),
        version: VERSION,
        spec: "\u{1}".repeat(MAX_SPEC_BYTES),
        state: vec![i64::MIN; MAX_OUTCOMES],
        generator: SavedGenerator {
            algorithm: GENERATOR_ALGORITHM.into(),
            state: vec!["f".repeat(16); 4],
        },
        draws: MAX_DRAWS,
        check: Some("crc32:ffffffff".into()),
    };
    let length = serde_json::to_string_pretty(&widest)
        .expect("serializes")
        .len();
    assert!(
        length <= MAX_SESSION_BYTES,
        "{length} > {MAX_SESSION_BYTES}"
    );
    assert!(
        length * 10 > MAX_SESSION_BYTES * 9,
        "a tight bound: {length}"
    );
    // A real session of the most outcomes, with 13-digit counts, round-trips.
    let (session, json) = saved_after("deck(values=1048576, copies=1099511627775)", 3);
    assert!(json.len() <= MAX_SESSION_BYTES);
    assert_eq!(Session::from_json(&json).expect("loads"), session);
}
