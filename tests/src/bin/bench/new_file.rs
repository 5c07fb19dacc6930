//! The new-file row: a `write` that creates a file in a directory of
//! 50,000 entries beside the same call in a directory of 50, in one
//! session, in turn. A new file must cost the same in any directory.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use filetools::Tools;

use super::targets::{Row, Samples, ratio_row};

/// Entries of the large directory, and of the small one.
const LARGE: usize = 50_000;
const SMALL: usize = 50;

/// Files created in each directory, timed one by one.
const CREATED: usize = 41;

/// The target: at most this times the small directory's.
const TARGET: f64 = 1.2;

/// `count` empty files in `dir`.
fn fill(dir: &Path, count: usize) -> Result<()> {
    fs::create_dir_all(dir)?;
    for n in 0..count {
        fs::write(dir.join(format!("f{n:05}.txt")), b"")?;
    }
    Ok(())
}

/// The row.
pub(crate) fn rows(dir: &Path) -> Result<Vec<Row>> {
    let root = dir.join("new-file");
    let _ = fs::remove_dir_all(&root);
    fill(&root.join("large"), LARGE)?;
    fill(&root.join("small"), SMALL)?;
    let tools = Tools::builder().root(&root).build()?;
    let mut session = tools.session()?;
    let mut create = |path: String| -> Result<Duration> {
        let args = serde_json::json!({"file_path": path, "content": "new\n"}).to_string();
        let started = Instant::now();
        let result = session.call("write", &args);
        let time = started.elapsed();
        if result.is_error {
            bail!("write {path}: {}", result.text());
        }
        Ok(time)
    };
    // A first write in each directory sweeps it once for debris: not timed.
    create("large/first.txt".to_owned())?;
    create("small/first.txt".to_owned())?;
    let (mut large, mut small) = (Vec::new(), Vec::new());
    for n in 0..CREATED {
        large.push(create(format!("large/new-{n}.txt"))?);
        small.push(create(format!("small/new-{n}.txt"))?);
    }
    let _ = fs::remove_dir_all(&root);
    Ok(vec![ratio_row(
        &format!("write of a new file into a directory of {LARGE} entries"),
        &Samples::of(large),
        &format!("the same in one of {SMALL}"),
        &Samples::of(small),
        TARGET,
    )])
}
