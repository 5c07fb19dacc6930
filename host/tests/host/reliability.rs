//! The host keeps its write promise under races, kills and bad input: the
//! reliability suite (`filetools_tests::reliability`) at counts that fit
//! CI, against the CLI under test. `cargo xtask stress` runs it at full
//! counts and prints the figures. Each test prints its seed; a failure
//! replays with `cargo xtask stress --seed N --only NAME`.

use std::path::Path;

use filetools_tests::hostile::Counts;
use filetools_tests::reliability::{
    Rng, cache, fresh_dir, fuzz, hostile, kill, kill_together,
    race::{self, Op, Writer},
    roots, swap,
};

use crate::{BIN, scratch};

/// A generator for this test, with its seed printed.
fn rng(test: &str) -> (Rng, u64) {
    let seed = Rng::seed_from_clock();
    println!("{test}: seed {seed}");
    (Rng::new(seed), seed)
}

#[test]
fn external_writers_racing_changes_lose_nothing() {
    let base = scratch("reliability-race");
    let (mut rng, seed) = rng("race");
    for op in Op::ALL {
        for writer in [Writer::Rename, Writer::InPlace] {
            let dir = fresh_dir(&base, "cli").unwrap();
            let report = race::cli(Path::new(BIN), &dir, op, writer, 40, &mut rng).unwrap();
            println!("{op}, other writer {writer}: {report}");
            assert_eq!(
                report.silent_losses, 0,
                "{op} {writer} (seed {seed}): {report}"
            );
            assert!(
                report.anomalies.is_empty(),
                "{op} {writer} (seed {seed}): {:?}",
                report.anomalies
            );
        }
    }
    for writer in [Writer::Rename, Writer::InPlace] {
        let dir = fresh_dir(&base, "sandbox").unwrap();
        let report = race::sandbox(&dir, true, writer, 300, &mut rng).unwrap();
        println!("sandbox writes, other writer {writer}: {report}");
        assert_eq!(report.silent_losses, 0, "{writer} (seed {seed}): {report}");
        assert!(
            report.anomalies.is_empty(),
            "{writer} (seed {seed}): {:?}",
            report.anomalies
        );
        assert!(report.conflicts > 0, "the race was never hit: {report}");
    }
}

#[test]
fn special_files_swapped_in_never_hang_a_call_or_get_replaced() {
    let dir = scratch("reliability-swap");
    let (mut rng, seed) = rng("swap");
    let report = swap::cli(Path::new(BIN), &dir, 20, &mut rng).unwrap();
    println!("{report}");
    assert_eq!(report.hangs, 0, "seed {seed}: {report}");
    assert_eq!(report.replaced, 0, "seed {seed}: {report}");
}

#[test]
fn a_killed_writer_leaves_whole_files_and_no_debris() {
    let dir = scratch("reliability-kill");
    let (mut rng, seed) = rng("kill");
    let report = kill::cli(Path::new(BIN), &dir, 16, 2 << 20, &mut rng).unwrap();
    println!("{report}");
    assert_eq!(report.torn, 0, "seed {seed}: {report}");
    assert_eq!(report.debris_after_next_write, 0, "seed {seed}: {report}");
    assert!(report.killed > 0, "no change was killed midway: {report}");
}

#[test]
fn a_change_of_several_files_killed_midway_is_all_or_none_after_the_next_call() {
    let dir = scratch("reliability-kill-together");
    let (mut rng, seed) = rng("together");
    let report = kill_together::cli(Path::new(BIN), &dir, 12, 2 << 20, &mut rng).unwrap();
    println!("{report}");
    assert_eq!(report.failures(), 0, "seed {seed}: {report}");
    // A batch puts its files in place in a short run at its end, so a kill
    // seldom leaves them mixed (undos of moves, and the trials aimed at that
    // run, still do): what must happen is kills after a step, which the
    // next call settles (keeping the change or putting files back) and names.
    assert!(
        report.recovered() > 0,
        "no kill landed after a step of a change: {report}"
    );
}

#[test]
fn every_protocol_line_gets_one_short_answer_and_the_session_lives() {
    let dir = scratch("reliability-fuzz");
    let (mut rng, seed) = rng("fuzz");
    // Just over the default cap of 32 MiB.
    let report = fuzz::cli(Path::new(BIN), &dir, 300, 33 << 20, &mut rng).unwrap();
    println!("{report}");
    assert_eq!(report.died_after, None, "seed {seed}: {report}");
    assert_eq!(report.answered, report.sent, "seed {seed}: {report}");
    assert_eq!(report.mismatched, 0, "seed {seed}: {report}");
    assert!(report.largest_answer < 4096, "seed {seed}: {report}");
    assert!(report.memory_kept, "seed {seed}: {report}");
}

#[test]
fn a_damaged_precompiled_component_is_recompiled_never_run() {
    let dir = scratch("reliability-cache");
    let (mut rng, seed) = rng("cache");
    let report = cache::cli(Path::new(BIN), &dir, 2, &mut rng).unwrap();
    println!("{report}");
    assert_eq!(report.failed_starts, 0, "seed {seed}: {report}");
    assert_eq!(
        report.repaired, report.damaged_starts,
        "seed {seed}: {report}"
    );
}

#[test]
fn every_spelling_of_a_root_works_and_kernel_files_stay_refused() {
    let dir = scratch("reliability-roots");
    let report = roots::cli(Path::new(BIN), &dir).unwrap();
    println!("{report}");
    assert!(report.failed.is_empty(), "{report}");
}

#[test]
fn hostile_files_never_trap_and_the_session_remembers_what_it_read() {
    let dir = scratch("reliability-hostile");
    let (mut rng, seed) = rng("hostile");
    let counts = Counts {
        flips: 12,
        pdf_flips: 40,
        garbage_bytes: 2 << 20,
        large_images: false,
    };
    let report = hostile::cli(Path::new(BIN), &dir, counts, &mut rng).unwrap();
    println!("hostile files:\n{report}");
    assert_eq!(report.failures(), 0, "seed {seed}:\n{report}");
}
