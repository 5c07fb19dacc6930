//! Runs every case under `tests/cases/` on every host and compares the
//! transcripts with `expected.txt` and with each other. `FILETOOLS_BLESS=1`
//! rewrites the expectations from the wasmtime host (review the diff!).

use std::collections::BTreeMap;
use std::fs;

use filetools_tests::case::{self, Case};
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
        let Some(reference) = reference else { continue };
        let expected_path = case.expected_path();
        if bless() {
            fs::write(&expected_path, &reference).expect("write expected.txt");
            continue;
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
        "hosts ran different case sets: {ran:?}"
    );
    println!("{} cases on {} hosts", cases.len(), hosts.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn run_case(
    case: &Case,
    hosts: &[Box<dyn hosts::Host>],
    ran: &mut BTreeMap<String, Vec<String>>,
    failures: &mut Vec<String>,
) -> Option<String> {
    let mut reference: Option<(String, String)> = None;
    for host in hosts {
        let root = case::scratch(&format!("{}-{}", host.name(), case.name.replace('/', "-")));
        case.lay_out(&root).expect("lay out case files");
        let results = match host.run(case, &root) {
            Ok(results) => results,
            Err(err) => {
                failures.push(format!("{} on {}: {err:#}", case.name, host.name()));
                continue;
            }
        };
        let _ = fs::remove_dir_all(&root);
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
            None => reference = Some((host.name(), text)),
            Some((name, expected)) if *expected != text => failures.push(format!(
                "{}: {} differs from {name}\n{}",
                case.name,
                host.name(),
                first_difference(expected, &text)
            )),
            Some(_) => {}
        }
    }
    reference.map(|(_, text)| text)
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
