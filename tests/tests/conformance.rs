//! Runs every case under `tests/cases/` on every host and compares the
//! transcripts with `expected.txt` and with each other, and the files left
//! behind with `fs.after/` (or, without one, with the files the case started
//! from: nothing may change). `FILETOOLS_BLESS=1` rewrites the expectations
//! from the wasmtime host (review the diff!).

use std::collections::BTreeMap;
use std::fs;

use filetools_tests::case::{self, Case, Tree};
use filetools_tests::{hosts, transcript};

fn bless() -> bool {
    std::env::var_os("FILETOOLS_BLESS").is_some_and(|v| v != "0")
}

#[test]
fn every_case_gives_the_same_transcript_on_every_host() {
    let cases = case::load_all(&case::cases_dir()).expect("cases load");
    assert!(!cases.is_empty(), "no conformance cases found");
    let hosts = hosts::all();
    let mut ran: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        let reference = run_case(case, &hosts, &mut ran, &mut failures);
        let Some((reference, initial, after)) = reference else {
            continue;
        };
        let expected_path = case.expected_path();
        if bless() {
            fs::write(&expected_path, &reference).expect("write expected.txt");
            if after == initial {
                let _ = fs::remove_dir_all(case.after_dir());
            } else {
                case::write_tree(&case.after_dir(), &after).expect("write fs.after");
            }
            continue;
        }
        let expected_after = if case.after_dir().is_dir() {
            case::snapshot(&case.after_dir()).expect("read fs.after")
        } else {
            initial
        };
        if after != expected_after {
            failures.push(format!(
                "{}: files after the calls differ from {}\n{}",
                case.name,
                if case.after_dir().is_dir() {
                    "fs.after/"
                } else {
                    "the files the case started from"
                },
                tree_difference(&expected_after, &after)
            ));
        }
        match fs::read_to_string(&expected_path) {
            Ok(expected) if expected == reference => {}
            Ok(expected) => failures.push(format!(
                "{}: transcript differs from expected.txt\n{}",
                case.name,
                first_difference(&expected, &reference)
            )),
            Err(_) => failures.push(format!(
                "{}: expected.txt is missing; run with FILETOOLS_BLESS=1 and review it",
                case.name
            )),
        }
    }
    let sets: Vec<&Vec<String>> = ran.values().collect();
    assert!(
        sets.windows(2).all(|w| w[0] == w[1]),
        "hosts ran different case sets: {ran:?}\n{}",
        failures.join("\n\n")
    );
    println!("{} cases on {} hosts", cases.len(), hosts.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs `case` on every host; returns the reference transcript, the files
/// the case started from, and the files the reference host left.
fn run_case(
    case: &Case,
    hosts: &[Box<dyn hosts::Host>],
    ran: &mut BTreeMap<String, Vec<String>>,
    failures: &mut Vec<String>,
) -> Option<(String, Tree, Tree)> {
    let mut reference: Option<(String, String, Tree)> = None;
    let mut initial = Tree::new();
    for host in hosts {
        let root = case::scratch(&format!("{}-{}", host.name(), case.name.replace('/', "-")));
        case.lay_out(&root).expect("lay out case files");
        initial = case::snapshot(&root).expect("snapshot case files");
        // A host that fails to run a case at all (not one that answers
        // differently) gets one more try on fresh files; the first error is
        // printed, so a flaky host stays visible in the test output.
        let run = host.run(case, &root).or_else(|first| {
            println!(
                "{} on {}: retrying after: {first:#}",
                case.name,
                host.name()
            );
            case.lay_out(&root)?;
            host.run(case, &root)
        });
        let run = match run {
            Ok(run) => run,
            Err(err) => {
                failures.push(format!("{} on {}: {err:#}", case.name, host.name()));
                continue;
            }
        };
        let _ = fs::remove_dir_all(&root);
        let results = run.results;
        let budget = budget_bytes(case);
        for (n, result) in results.iter().enumerate() {
            let len = result.text().len() as u64;
            if len > budget {
                failures.push(format!(
                    "{} on {}: call {} returned {len} bytes, over the {budget}-byte budget",
                    case.name,
                    host.name(),
                    n + 1
                ));
            }
        }
        ran.entry(host.name()).or_default().push(case.name.clone());
        let text = transcript::render(case, &results);
        match &reference {
            None => reference = Some((host.name(), text, run.after)),
            Some((name, expected, after)) => {
                if *expected != text {
                    failures.push(format!(
                        "{}: {} differs from {name}\n{}",
                        case.name,
                        host.name(),
                        first_difference(expected, &text)
                    ));
                }
                if *after != run.after {
                    failures.push(format!(
                        "{}: {} left other files than {name}\n{}",
                        case.name,
                        host.name(),
                        tree_difference(after, &run.after)
                    ));
                }
            }
        }
    }
    reference.map(|(_, text, after)| (text, initial, after))
}

/// The first file that differs between two trees, for a failure message.
fn tree_difference(expected: &Tree, actual: &Tree) -> String {
    for (path, data) in expected {
        match actual.get(path) {
            None => return format!("  {path}: missing"),
            Some(other) if other != data => {
                return format!(
                    "  {path}: expected {:?}, got {:?}",
                    String::from_utf8_lossy(&data[..data.len().min(200)]),
                    String::from_utf8_lossy(&other[..other.len().min(200)])
                );
            }
            Some(_) => {}
        }
    }
    match actual.keys().find(|path| !expected.contains_key(*path)) {
        Some(path) => format!("  {path}: not expected"),
        None => "  (no difference)".to_owned(),
    }
}

/// The case's output budget in bytes: no answer may exceed it (SPEC R2).
fn budget_bytes(case: &Case) -> u64 {
    let config = filetools_core::Config::from_json(&case.config).expect("case config is valid");
    config.budget_bytes()
}

fn first_difference(expected: &str, actual: &str) -> String {
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    let show = |text: &str| {
        text.lines()
            .nth(line)
            .unwrap_or("<end>")
            .chars()
            .take(300)
            .collect::<String>()
    };
    format!(
        "  line {}:\n  expected: {}\n  actual:   {}",
        line + 1,
        show(expected),
        show(actual)
    )
}
