//! `filetools serve` over a real Redis Cluster (three primaries with a
//! replica each, on loopback): two replicas serve clients that edit while
//! a primary is killed with `kill -9`. With saves answered only once a
//! replica has them (`--store-replicas 1`), every answered change is still
//! in the store after the failover, counted, and undo takes it back; with
//! it off, the test prints how many were lost. Until the killed node comes
//! back as a replica, saves on the primary that took its place are
//! answered with the word that they reached no replica.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use filetools_tests::http::{ServeProcess, call_at};
use filetools_tests::redis::RedisCluster;
use serde_json::{Value, json};

use crate::BIN;

const TOKEN: &str = "cluster-token-0123456789";
const AUTH: (&str, &str) = ("authorization", "Bearer cluster-token-0123456789");

/// Clients, each with its own session and file.
const CLIENTS: usize = 6;

/// How long the clients edit before the kill, and after it.
const BEFORE_KILL: Duration = Duration::from_millis(1500);
const AFTER_KILL: Duration = Duration::from_secs(6);

fn replica(root: &Path, store: &str, replicas: u32) -> ServeProcess {
    let replicas = replicas.to_string();
    ServeProcess::start(
        Path::new(BIN),
        &[
            "--root",
            root.to_str().unwrap(),
            "--store",
            store,
            "--store-replicas",
            &replicas,
            "--store-wait-ms",
            "3000",
        ],
        &[("FILETOOLS_TOKEN", TOKEN)],
    )
    .unwrap()
}

fn call(address: &str, handle: Option<&str>, tool: &str, args: Value) -> Value {
    let mut args = args;
    if let Some(handle) = handle {
        args["session"] = json!(handle);
    }
    call_at(address, "/mcp", &[AUTH], tool, &args).unwrap()
}

/// Whether an answer is a change the session kept: no error, and no word
/// that its record was not saved.
fn kept(answer: &Value) -> bool {
    answer["isError"] == false
        && !answer["content"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|block| {
                block["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("was not saved"))
            })
}

/// What one client came to.
#[derive(Debug, Default)]
struct Tally {
    /// Changes answered as kept.
    answered: u64,
    /// Edits refused because the session had lost its last answered change.
    lost: u64,
    /// Answers that said the record was not saved, or other errors.
    unsaved: u64,
}

/// One client: opens a session on its file, then edits `vN` to `vN+1` on
/// the replicas by turns until `stop`. Its handle, the last version
/// answered, and its tally.
fn client(
    addresses: &[String],
    root: &Path,
    file: &str,
    stop: &AtomicBool,
) -> (String, u64, Tally) {
    let first = call(&addresses[0], None, "read", json!({"file_path": file}));
    let handle = first["_meta"]["filetools/session"]
        .as_str()
        .unwrap()
        .to_owned();
    let (mut version, mut tally, mut turn) = (0u64, Tally::default(), 0usize);
    while !stop.load(Ordering::Relaxed) {
        turn += 1;
        let address = &addresses[turn % addresses.len()];
        let args = json!({"file_path": file, "old_string": format!("v{version}"), "new_string": format!("v{}", version + 1)});
        let answer = call(address, Some(&handle), "edit", args);
        if kept(&answer) {
            version += 1;
            tally.answered += 1;
            continue;
        }
        if answer["structuredContent"]["error"] == "stale" {
            // The session did not know the version it answered last.
            tally.lost += 1;
        } else {
            tally.unsaved += 1;
        }
        // Start again from what the file holds.
        call(address, Some(&handle), "read", json!({"file_path": file}));
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
        version = text
            .trim()
            .trim_start_matches('v')
            .parse()
            .unwrap_or(version);
    }
    (handle, version, tally)
}

/// Runs the clients over a fresh cluster, kills a primary midway, and
/// checks each session on a replica started afterwards (which holds
/// nothing in memory, so it reads what the store kept): its last answered
/// change is known (an edit of it is not refused as stale) and undo takes
/// it back. The tallies, and the sessions whose last answered change the
/// store lost.
fn run(replicas: u32) -> Option<(Tally, u64)> {
    // One cluster at a time: two forming at once on one loopback, beside
    // the other tests' servers, slow each other past their timeouts.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let mut cluster = RedisCluster::start()?;
    let root = std::env::temp_dir().join(format!(
        "filetools-cluster-root-{replicas}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    for n in 0..CLIENTS {
        std::fs::write(root.join(format!("f{n}.txt")), "v0\n").unwrap();
    }
    let url = cluster.url();
    let servers = [
        replica(&root, &url, replicas),
        replica(&root, &url, replicas),
    ];
    let addresses: Arc<Vec<String>> = Arc::new(servers.iter().map(|s| s.address.clone()).collect());
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|n| {
            let (addresses, stop, root) = (Arc::clone(&addresses), Arc::clone(&stop), root.clone());
            std::thread::spawn(move || client(&addresses, &root, &format!("f{n}.txt"), &stop))
        })
        .collect();
    std::thread::sleep(BEFORE_KILL);
    let killed = cluster.kill_a_primary();
    let killed_at = Instant::now();
    std::thread::sleep(AFTER_KILL);
    stop.store(true, Ordering::Relaxed);
    let results: Vec<_> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    cluster.wait_until_serving();
    println!(
        "killed the primary on port {killed}; the cluster served again {:.1} s later at most",
        killed_at.elapsed().as_secs_f64()
    );
    // The killed node comes back as the new primary's replica, so saves
    // that wait for one are answered again.
    cluster.restart_killed();
    let fresh = replica(&root, &url, replicas);
    let mut total = Tally::default();
    let mut lost_at_end = 0;
    for (n, (handle, version, tally)) in results.into_iter().enumerate() {
        total.answered += tally.answered;
        total.lost += tally.lost;
        total.unsaved += tally.unsaved;
        let file = format!("f{n}.txt");
        let on_disk = std::fs::read_to_string(root.join(&file)).unwrap();
        assert_eq!(on_disk, format!("v{version}\n"), "{file}");
        let args = json!({"file_path": file, "old_string": format!("v{version}"), "new_string": format!("v{}", version + 1)});
        let answer = call(&fresh.address, Some(&handle), "edit", args);
        if answer["structuredContent"]["error"] == "stale" {
            lost_at_end += 1;
            continue;
        }
        assert!(kept(&answer), "{answer}");
        for _ in 0..2 {
            let undone = call(
                &fresh.address,
                Some(&handle),
                "undo",
                json!({"file_path": file}),
            );
            assert!(kept(&undone), "{undone}");
        }
        let back = std::fs::read_to_string(root.join(&file)).unwrap();
        if version > 0 {
            assert_eq!(
                back,
                format!("v{}\n", version - 1),
                "{file} after two undos"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    Some((total, lost_at_end))
}

/// [`run`], its figures printed; some change must have been answered.
fn run_and_report(replicas: u32) -> Option<(Tally, u64)> {
    let (tally, lost_at_end) = run(replicas)?;
    println!(
        "--store-replicas {replicas}: {} changes answered, {} lost during the run, {} lost at the end, {} answered as not saved",
        tally.answered, tally.lost, lost_at_end, tally.unsaved
    );
    assert!(tally.answered > 0);
    Some((tally, lost_at_end))
}

#[test]
fn with_saves_on_a_replica_a_killed_primary_loses_no_answered_change() {
    let Some((tally, lost_at_end)) = run_and_report(1) else {
        return;
    };
    assert_eq!((tally.lost, lost_at_end), (0, 0), "{tally:?}");
}

#[test]
fn without_waiting_for_replicas_the_lost_changes_are_counted() {
    run_and_report(0);
}
