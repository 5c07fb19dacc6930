//! The precompiled-component cache cleans up after itself: builds of other
//! components come and go, and the cache keeps only what its policy allows.

use std::process::Command;

use filetools::Tools;
use filetools::cache::{Cache, MAX_KEPT_ARTIFACTS};

use crate::{BIN, scratch};

/// A component of its own: an empty one with a custom section holding `n`,
/// so each has another digest (and so another artifact).
fn component(n: u32) -> Vec<u8> {
    let mut wasm = b"\0asm\x0d\x00\x01\x00".to_vec();
    let payload = n.to_le_bytes();
    // Custom section: id 0, size, the name "n", the payload.
    wasm.extend([0, 2 + payload.len() as u8, 1, b'n']);
    wasm.extend(payload);
    wasm
}

#[test]
fn after_twenty_builds_the_cache_holds_what_its_policy_allows() {
    let root = scratch("cache-root");
    let dir = scratch("cache-dir").join("cache");
    for n in 0..20 {
        // Not the tools' world, so the build fails after the artifact is
        // stored, as a build of another version would have stored it.
        let _ = Tools::builder()
            .root(&root)
            .cache_dir(&dir)
            .component(component(n))
            .build();
        // The newest is always there.
        let cache = Cache::choose(Some(dir.clone()), None).unwrap();
        let artifacts = cache.artifacts();
        assert!(artifacts.len() <= MAX_KEPT_ARTIFACTS, "{artifacts:?}");
        assert_eq!(artifacts.len(), (n as usize + 1).min(MAX_KEPT_ARTIFACTS));
    }
    // Each artifact comes with its digest: nothing else is left behind.
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, 2 * MAX_KEPT_ARTIFACTS);

    // `filetools cache` shows it; `--clear` empties it.
    let shown = Command::new(BIN)
        .arg("cache")
        .env("FILETOOLS_CACHE_DIR", &dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.status.success(), "{text}");
    assert!(
        text.starts_with(&format!("cache: {}\n", dir.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("{MAX_KEPT_ARTIFACTS} artifacts, ")),
        "{text}"
    );
    let cleared = Command::new(BIN)
        .args(["cache", "--clear"])
        .env("FILETOOLS_CACHE_DIR", &dir)
        .output()
        .unwrap();
    assert!(cleared.status.success());
    assert!(
        String::from_utf8_lossy(&cleared.stdout)
            .contains(&format!("removed {MAX_KEPT_ARTIFACTS} artifacts"))
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}
