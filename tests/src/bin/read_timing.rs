//! `read_timing DIR FILE CALLS`: the median time of one `read` of `FILE`
//! (no range; dedup and outlines off) in the wasmtime host over `DIR`, the
//! best of [`ROUNDS`] rounds of `CALLS` calls, as one JSON line — the figure the npm package's benchmark compares Node
//! against, on the same file with the same arguments.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, Result};
use filetools::Tools;
use serde_json::json;

/// Calls made before timing starts.
const WARM_UP: usize = 20;
/// Rounds timed; the fastest median counts, as a noisy machine only ever
/// slows a round down.
const ROUNDS: usize = 3;

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: read_timing DIR FILE CALLS";
    let dir = PathBuf::from(args.next().context(usage)?);
    let file = args.next().context(usage)?;
    let calls: usize = args.next().context(usage)?.parse()?;
    let tools = Tools::builder()
        .root(&dir)
        .config_json(r#"{"dedup": false, "outline": false}"#)?
        .build()?;
    let mut session = tools.session()?;
    let arguments = json!({ "file_path": file }).to_string();
    let first = session.call("read", &arguments);
    for _ in 0..WARM_UP {
        session.call("read", &arguments);
    }
    let mut best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let mut times = Vec::with_capacity(calls);
        for _ in 0..calls {
            let start = Instant::now();
            std::hint::black_box(session.call("read", &arguments));
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
        times.sort_by(f64::total_cmp);
        best = best.min(times.get(times.len() / 2).copied().unwrap_or_default());
    }
    let median = best;
    println!(
        "{}",
        json!({ "median_us": median, "output_bytes": first.text().len() })
    );
    Ok(())
}
