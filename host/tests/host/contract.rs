//! The WIT package's version moves with its text (docs/architecture.md,
//! *The contract*): `wit/versions.txt` lists every version with the digest
//! of its text, and a change of the text under a version already listed
//! fails here. The built component imports the version `wit/world.wit`
//! names.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

/// The WIT package of the workspace.
fn wit() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../wit")
}

/// The version `world.wit`'s package line names.
fn version() -> String {
    let world = std::fs::read_to_string(wit().join("world.wit")).unwrap();
    let line = world
        .lines()
        .find_map(|line| line.trim().strip_prefix("package filetools:core@"))
        .expect("world.wit names the package filetools:core with its version");
    line.trim_end_matches(';').to_owned()
}

/// The SHA-256 of the package's text: every `.wit` file under `wit/`
/// (dependencies included), by its path there, its package line left out,
/// so the digest is of the contract and not of its version. Doc comments
/// and spacing count: the text is what hosts are generated from.
fn digest() -> String {
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "wit") {
                out.push(path);
            }
        }
    }
    let mut found = Vec::new();
    files(&wit(), &mut found);
    found.sort();
    let mut hash = Sha256::new();
    for file in found {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file
            .strip_prefix(wit())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        hash.update(name.as_bytes());
        hash.update(b"\n");
        for line in text
            .lines()
            .filter(|l| !l.trim_start().starts_with("package "))
        {
            hash.update(line.as_bytes());
            hash.update(b"\n");
        }
    }
    filetools_core::hex(&hash.finalize())
}

/// `major.minor.patch` as numbers, for ordering.
fn numbers(version: &str) -> (u64, u64, u64) {
    let mut parts = version.split('.').map(|p| p.parse::<u64>().unwrap());
    let triple = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    assert!(parts.next().is_none(), "{version} is major.minor.patch");
    triple
}

/// The lines of `versions.txt`: `(version, digest)`, oldest first.
fn listed() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(wit().join("versions.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (version, digest) = l.split_once(' ').expect("`VERSION DIGEST` per line");
            (version.to_owned(), digest.trim().to_owned())
        })
        .collect()
}

#[test]
fn the_wit_text_changes_only_with_its_version() {
    let (version, digest) = (version(), digest());
    let listed = listed();
    if std::env::var_os("FILETOOLS_BLESS").is_some() && !listed.iter().any(|(v, _)| *v == version) {
        let path = wit().join("versions.txt");
        let mut text = std::fs::read_to_string(&path).unwrap();
        writeln!(text, "{version} {digest}").unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let (last_version, last_digest) = listed.last().expect("versions.txt lists a version");
    assert!(
        *last_version == version,
        "wit/world.wit names {version}, but wit/versions.txt ends at {last_version}: \
         record the new version with FILETOOLS_BLESS=1 cargo test -p agent-filetools --test host contract"
    );
    assert!(
        *last_digest == digest,
        "the WIT text changed, but its version is still {version}: a host built for it would link \
         and then fail (or misread) at the first call. Raise the version in wit/world.wit (the rule \
         is in docs/architecture.md, *The contract*), then record it with FILETOOLS_BLESS=1 cargo \
         test -p agent-filetools --test host contract"
    );
    let mut seen = BTreeSet::new();
    for pair in listed.windows(2) {
        let (before, after) = (numbers(&pair[0].0), numbers(&pair[1].0));
        // A change of the text is never a patch: hosts of the version
        // before would link to the one after (semantic versioning) and
        // fail at their first call.
        let raised = if before.0 == 0 {
            after.0 > 0 || after.1 > before.1
        } else {
            after.0 > before.0 || after.1 > before.1
        };
        assert!(
            raised,
            "{} follows {} in wit/versions.txt: a change of the text raises the minor version \
             (the major one, from 1.0.0 on, when hosts of the old one cannot follow)",
            pair[1].0, pair[0].0
        );
    }
    for (version, digest) in &listed {
        assert!(
            seen.insert(digest),
            "{version} has the text of an earlier version"
        );
    }
}

#[test]
fn the_component_imports_the_contract_at_its_version() {
    let version = version();
    let tools = filetools::Tools::builder()
        .fs(std::sync::Mutex::new(filetools::MemFs::new()))
        .build()
        .unwrap();
    let ours: Vec<String> = tools
        .component_imports()
        .into_iter()
        .filter(|name| name.starts_with("filetools:"))
        .collect();
    assert!(!ours.is_empty());
    for name in &ours {
        assert!(
            name.ends_with(&format!("@{version}")),
            "{name} is not at {version}"
        );
    }
    assert!(
        ours.iter()
            .any(|n| n.starts_with("filetools:core/host-fs@"))
    );
    assert!(ours.iter().any(|n| n.starts_with("filetools:core/code@")));
}

/// A store's state with WASI and nothing else, for a linker of another
/// version of the contract.
struct Wasi {
    ctx: wasmtime_wasi::WasiCtx,
    table: wasmtime::component::ResourceTable,
}

impl wasmtime_wasi::WasiView for Wasi {
    fn ctx(&mut self) -> wasmtime_wasi::WasiCtxView<'_> {
        wasmtime_wasi::WasiCtxView {
            ctx: &mut self.ctx,
            table: &mut self.table,
        }
    }
}

/// The functions of each interface the tools' component imports.
const IMPORTED: [(&str, &[&str]); 2] = [
    (
        "host-fs",
        &[
            "stat",
            "read",
            "list-dir",
            "list-names",
            "write-file",
            "remove-file",
            "create-dir",
            "rename",
            "begin-change",
            "end-change",
            "batch-begin",
            "batch-end",
            "digests",
            "claim-unfinished",
            "scan-start",
            "scan-results",
            "walk-start",
            "walk-results",
        ],
    ),
    ("code", &["outline", "syntax-errors"]),
];

/// Whether a linker offering every imported function at `version` links
/// the tools' component, and what it said when it did not.
fn links_at(version: &str) -> Result<(), String> {
    let mut config = wasmtime::Config::new();
    config.epoch_interruption(true);
    let engine = wasmtime::Engine::new(&config).unwrap();
    let component = wasmtime::component::Component::new(
        &engine,
        include_bytes!(env!("FILETOOLS_COMPONENT_WASM")).as_slice(),
    )
    .unwrap();
    let mut linker = wasmtime::component::Linker::<Wasi>::new(&engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).unwrap();
    for (interface, functions) in IMPORTED {
        let mut instance = linker
            .instance(&format!("filetools:core/{interface}@{version}"))
            .unwrap();
        for function in functions {
            instance.func_new(function, |_, _, _, _| Ok(())).unwrap();
        }
    }
    linker
        .instantiate_pre(&component)
        .map(drop)
        .map_err(|err| format!("{err:#}"))
}

#[test]
fn a_host_of_another_version_is_refused_before_any_call() {
    let version = version();
    assert_eq!(links_at(&version), Ok(()));
    // Semantic versioning's compatible step (0.2.0 and 0.2.1) links.
    let (major, minor, patch) = numbers(&version);
    assert_eq!(links_at(&format!("{major}.{minor}.{}", patch + 1)), Ok(()));
    // What a host generated from 0.1.0 offers: the same functions, at the
    // version it was built for.
    let said = links_at("0.1.0").unwrap_err();
    assert!(
        said.contains(&format!("filetools:core/host-fs@{version}"))
            && said.contains("matching implementation was not found"),
        "{said}"
    );
}
