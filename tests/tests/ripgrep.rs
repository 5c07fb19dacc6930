//! `grep` against ripgrep itself: on generated trees with random nested
//! `.gitignore` and `.ignore` files (negations, anchored and directory
//! patterns, globstars), a repository's `.git/info/exclude`, hidden files
//! and directories, both must find the same files and the same lines, with
//! the ignore rules on, with hidden names searched and with no ignore rules
//! at all. `rg` comes from the setup (`cargo xtask setup`); without it the
//! test says so and passes, unless `FILETOOLS_REQUIRE_RIPGREP` is set (as
//! `cargo xtask test` sets it).

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use filetools_core::{Config, MemFs, Session};

/// Trees generated per run.
const TREES: u64 = 40;

/// A small deterministic generator (xorshift), so a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const NAMES: [&str; 10] = [
    "src",
    "lib",
    "build",
    "docs",
    "gen",
    ".cache",
    "node_modules",
    "a",
    "b",
    ".hid",
];
const FILES: [&str; 12] = [
    "main.rs",
    "util.py",
    "notes.md",
    "out.log",
    "keep.log",
    "data.json",
    ".env",
    "x.txt",
    "gen.rs",
    "README",
    "tmp.tmp",
    "b.c",
];
const WORDS: [&str; 10] = [
    "foo", "bar", "baz", "qux", "word", "MiXeD", "end", "fn main", "TODO", "x",
];
const RULES: [&str; 16] = [
    "*.log",
    "!keep.log",
    "build/",
    "/gen",
    "**/node_modules",
    "*.tmp",
    "docs/*.md",
    "!README",
    "a/**/x.txt",
    "# a comment",
    "data.*",
    "!*.py",
    "src/",
    "\\#literal",
    "b",
    ".cache/",
];
const PATTERNS: [&str; 8] = [
    "foo",
    "ba[rz]",
    "^qux",
    "end$",
    r"\bword\b",
    "(?i)mixed|TODO",
    // Text inside the pattern, past its start: searched line by line from it.
    r"\w+ main",
    r"(fn|x) ?mai[n]\b",
];

/// Writes a random tree to `disk`; gives its files.
fn generate(rng: &mut Rng, disk: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut dirs = vec![String::new()];
    for _ in 0..=(2 + rng.below(6)) {
        let parent = dirs[rng.below(dirs.len())].clone();
        if parent.matches('/').count() >= 3 {
            continue;
        }
        let name = rng.pick(&NAMES);
        dirs.push(format!("{parent}{name}/"));
    }
    let mut put = |rel: &str, text: &str| {
        let path = disk.join(rel);
        fs::create_dir_all(path.parent().expect("a file has a parent"))
            .expect("make the directory");
        fs::write(&path, text).expect("write the file");
        files.push((rel.to_owned(), text.to_owned()));
    };
    for dir in &dirs {
        for _ in 0..=rng.below(4) {
            let name = rng.pick(&FILES);
            let lines: Vec<String> = (0..=rng.below(6))
                .map(|_| {
                    (0..=rng.below(4))
                        .map(|_| rng.pick(&WORDS))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            put(&format!("{dir}{name}"), &format!("{}\n", lines.join("\n")));
        }
        for ignore_file in [".gitignore", ".ignore"] {
            if rng.below(3) == 0 {
                let rules: Vec<&str> = (0..=rng.below(4)).map(|_| rng.pick(&RULES)).collect();
                put(
                    &format!("{dir}{ignore_file}"),
                    &format!("{}\n", rules.join("\n")),
                );
            }
        }
    }
    if rng.below(2) == 0 {
        put(".git/info/exclude", &format!("{}\n", rng.pick(&RULES)));
    }
    files
}

/// What ripgrep finds: `(path, line)` pairs (line 0 for a file listed).
fn ripgrep(dir: &Path, pattern: &str, flags: &[&str], lines: bool) -> BTreeSet<(String, u64)> {
    let home = dir
        .parent()
        .expect("trees are in a scratch folder")
        .join("home");
    fs::create_dir_all(&home).expect("make the empty home");
    let output = Command::new("rg")
        .args([
            "--no-config",
            "--no-require-git",
            "--crlf",
            "--sort",
            "path",
        ])
        .args(if lines {
            &["-n", "--no-heading"][..]
        } else {
            &["-l"][..]
        })
        .args(flags)
        .arg("--")
        .arg(pattern)
        .current_dir(dir)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &home)
        .env_remove("RIPGREP_CONFIG_PATH")
        .output()
        .expect("rg runs");
    assert!(
        output.status.code().is_some_and(|c| c <= 1),
        "rg failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            if !lines {
                return (line.to_owned(), 0);
            }
            let mut parts = line.splitn(3, ':');
            let path = parts.next().unwrap_or_default().to_owned();
            let number = parts
                .next()
                .and_then(|n| n.parse().ok())
                .expect("rg -n gives numbers");
            (path, number)
        })
        .collect()
}

/// What `grep` finds, in the same form.
fn ours(
    files: &[(String, String)],
    pattern: &str,
    args: serde_json::Value,
    lines: bool,
) -> BTreeSet<(String, u64)> {
    let config = Config::from_json(r#"{"max_output_tokens": 10000000}"#).expect("config");
    let memory = MemFs::new();
    for (path, text) in files {
        memory.add_file(path, text.as_bytes());
    }
    let mut session = Session::new(config, memory);
    let mut call = args;
    call["pattern"] = pattern.into();
    call["output_mode"] = if lines {
        "content"
    } else {
        "files_with_matches"
    }
    .into();
    let result = session.call("grep", &call.to_string());
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(result.metadata["truncated"], false, "{}", result.text());
    let mut found = BTreeSet::new();
    let mut file = String::new();
    for line in result.text().lines() {
        // The footer, then what was skipped.
        if line.starts_with('[') || line.starts_with("No matches") {
            break;
        }
        if line == "--" {
            continue;
        }
        if !lines {
            found.insert((line.to_owned(), 0));
            continue;
        }
        let numbered = line
            .split_once([':', '-'])
            .and_then(|(number, _)| Some((number.parse::<u64>().ok()?, number.len())));
        match numbered {
            Some((number, width)) => {
                if line[width..].starts_with(':') {
                    found.insert((file.clone(), number));
                }
            }
            None => line
                .split(" [")
                .next()
                .unwrap_or_default()
                .clone_into(&mut file),
        }
    }
    found
}

fn rg_available() -> bool {
    Command::new("rg")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn grep_finds_what_ripgrep_finds_under_random_ignore_files() {
    if !rg_available() {
        assert!(
            std::env::var_os("FILETOOLS_REQUIRE_RIPGREP").is_none(),
            "rg is missing: run `cargo xtask setup`"
        );
        return;
    }
    let scratch = std::env::temp_dir().join(format!("filetools-rg-{}", std::process::id()));
    let modes: [(&[&str], serde_json::Value); 3] = [
        (&[], serde_json::json!({})),
        (&["--hidden"], serde_json::json!({"hidden": true})),
        (
            &["--hidden", "--no-ignore"],
            serde_json::json!({"hidden": true, "no_ignore": true}),
        ),
    ];
    let mut compared = 0;
    // Searches whose answer the ignore rules or the hidden rule changed:
    // the trees must exercise them.
    let mut ruled = 0;
    for seed in 1..=TREES {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let dir = scratch.join(format!("tree-{seed}"));
        let _ = fs::remove_dir_all(&dir);
        let files = generate(&mut rng, &dir);
        for pattern in PATTERNS {
            let mut by_mode = Vec::new();
            for (flags, args) in &modes {
                for lines in [false, true] {
                    let theirs = ripgrep(&dir, pattern, flags, lines);
                    let mine = ours(&files, pattern, args.clone(), lines);
                    assert_eq!(
                        mine,
                        theirs,
                        "tree {seed} (in {}), pattern {pattern:?}, rg flags {flags:?}, lines {lines}",
                        dir.display()
                    );
                    compared += 1;
                    by_mode.push(mine);
                }
            }
            ruled += usize::from(by_mode[0] != by_mode[4]);
        }
        fs::remove_dir_all(&dir).expect("remove the tree");
    }
    let _ = fs::remove_dir_all(&scratch);
    assert_eq!(compared, TREES as usize * PATTERNS.len() * 6);
    assert!(
        ruled > TREES as usize,
        "the rules changed only {ruled} searches"
    );
}
