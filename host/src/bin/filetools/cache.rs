//! `filetools cache [--clear]`: where the precompiled-component cache is,
//! each artifact with its size and last use, the total and the policy that
//! sweeps it; `--clear` removes every artifact.

use std::process::ExitCode;
use std::time::SystemTime;

use anyhow::{Result, anyhow};
use filetools::cache::{Cache, MAX_KEPT_ARTIFACTS, MAX_UNUSED_DAYS};

use crate::cli::CacheArgs;

pub fn run(args: &CacheArgs) -> Result<ExitCode> {
    let explicit = std::env::var_os("FILETOOLS_CACHE_DIR").map(Into::into);
    let cache = Cache::choose(explicit, None).map_err(|why| anyhow!(why))?;
    let artifacts = cache.artifacts();
    println!("cache: {}", cache.path().display());
    if args.clear {
        let bytes: u64 = artifacts.iter().map(|a| a.bytes).sum();
        for artifact in &artifacts {
            cache.remove(&artifact.name);
        }
        println!("removed {} artifacts, {}", artifacts.len(), mib(bytes));
        return Ok(ExitCode::SUCCESS);
    }
    let now = SystemTime::now();
    for artifact in &artifacts {
        let days = now
            .duration_since(artifact.used)
            .map_or(0, |age| age.as_secs() / 86_400);
        let used = match days {
            0 => "used today".to_owned(),
            1 => "used 1 day ago".to_owned(),
            n => format!("used {n} days ago"),
        };
        println!("{}  {}  {used}", artifact.name, mib(artifact.bytes));
    }
    let total: u64 = artifacts.iter().map(|a| a.bytes).sum();
    println!(
        "{} artifacts, {}. A start that stores a new artifact keeps the {MAX_KEPT_ARTIFACTS} most recently used and none unused for {MAX_UNUSED_DAYS} days; `filetools cache --clear` removes them all.",
        artifacts.len(),
        mib(total)
    );
    Ok(ExitCode::SUCCESS)
}

/// `bytes` in MiB, to one decimal.
fn mib(bytes: u64) -> String {
    #[expect(clippy::cast_precision_loss, reason = "shown to one decimal")]
    let mib = bytes as f64 / f64::from(1 << 20);
    format!("{mib:.1} MiB")
}
