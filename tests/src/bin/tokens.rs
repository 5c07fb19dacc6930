//! `cargo xtask tokens`: what outlines save on real files nobody on the team
//! wrote — the largest Rust sources among the workspace's dependencies in the
//! cargo registry, Python's standard library (with `_pydecimal.py`), C
//! sources and headers, npm's JavaScript, and Markdown and JSON found beside
//! them. For each file: lines, bytes, the bytes of the answer to a read
//! without a range, their ratio and estimated tokens; then the median ratio,
//! and the "reach a symbol" figure: the bytes a model reads to see one named
//! function whole via the outline and a range read, against reading from
//! line 1 page by page until it has passed the function's end; and the
//! "replace a symbol" figure: the bytes a model writes, and reads back, to
//! replace that function whole (one line added to it) by `edit` with
//! `symbol`, by `edit` with the whole old text, and by an `apply_patch`
//! hunk that removes the old lines and adds the new ones.

#![expect(
    clippy::cast_precision_loss,
    reason = "ratios of byte counts far below 2^52"
)]

use std::path::{Path, PathBuf};

use anyhow::Result;
use filetools_core::ReadArgs;
use filetools_core::view::by_kind::read;
use filetools_core::view::outline::{Language, Symbol, symbols};
use filetools_core::{Config, MemFs, Session, ToolResult};
use filetools_tests::real_files::{cargo_registry, python_stdlib};

/// Longest function taken for the reach-a-symbol figure.
const MAX_FUNCTION_LINES: u64 = 300;
/// Files taken from each source.
const PER_SOURCE: usize = 6;
/// Files shorter than this are shown whole anyway.
const MIN_LINES: usize = 1500;
/// Files longer than this are generated tables, not code people read.
const MAX_LINES: usize = 20_000;

fn main() {
    let config = Config::default();
    let mut rows = Vec::new();
    for (source, files) in sources() {
        println!("\n{source}");
        println!(
            "{:<44} {:>7} {:>9} {:>8} {:>7} {:>8} {:>7}",
            "file", "lines", "bytes", "answer", "ratio", "tokens", "answer"
        );
        for path in files {
            let Ok(row) = measure(&config, &path) else {
                continue;
            };
            println!(
                "{:<44} {:>7} {:>9} {:>8} {:>6.1}% {:>8} {:>7}",
                short(&path),
                row.lines,
                row.bytes,
                row.answer,
                row.ratio() * 100.0,
                config.estimate_tokens(row.bytes as u64),
                config.estimate_tokens(row.answer as u64),
            );
            rows.push(row);
        }
    }
    let mut ratios: Vec<f64> = rows.iter().map(Row::ratio).collect();
    ratios.sort_by(f64::total_cmp);
    if let Some(median) = ratios.get(ratios.len() / 2) {
        println!(
            "\nmedian answer/file ratio over {} files: {:.1}% (a {:.1}x saving)",
            ratios.len(),
            median * 100.0,
            1.0 / median
        );
    }
    reach(&config, &rows);
    replace(&rows);
}

struct Row {
    path: PathBuf,
    text: String,
    /// The file, alone in memory under its own name, for every read of it.
    fs: MemFs,
    name: String,
    lines: usize,
    bytes: usize,
    answer: usize,
}

impl Row {
    fn ratio(&self) -> f64 {
        self.answer as f64 / self.bytes as f64
    }
}

fn measure(config: &Config, path: &Path) -> Result<Row> {
    let text = std::fs::read_to_string(path)?;
    let name = path
        .file_name()
        .map_or_else(|| "file".to_owned(), |n| n.to_string_lossy().into_owned());
    let fs = MemFs::new();
    fs.add_file(&name, text.as_bytes());
    let mut row = Row {
        path: path.to_owned(),
        lines: text.lines().count(),
        bytes: text.len(),
        answer: 0,
        text,
        fs,
        name,
    };
    row.answer = call(config, &row, None).text().len();
    Ok(row)
}

/// One `read` of the file of `row`, with a range or not.
fn call(config: &Config, row: &Row, range: Option<(u64, u64)>) -> ToolResult {
    let args = ReadArgs {
        file_path: row.name.clone(),
        offset: range.map(|r| r.0),
        limit: range.map(|r| r.1),
        ..ReadArgs::default()
    };
    read(config, &row.fs, &args)
}

/// The reach-a-symbol figure over the code files.
fn reach(config: &Config, rows: &[Row]) {
    println!("\nreach a symbol: bytes read to see one function whole");
    println!(
        "{:<44} {:<28} {:>9} {:>10} {:>7}",
        "file", "function [lines]", "outline", "paging", "saving"
    );
    let (mut via_outline, mut via_paging) = (0usize, 0usize);
    for row in rows {
        let language = Language::detect(&row.path.to_string_lossy(), row.text.as_bytes());
        let Some(tree) = symbols(language, &row.text) else {
            continue;
        };
        let Some(target) = function_at(&tree, row.lines as u64 * 2 / 3) else {
            continue;
        };
        let outline = row.answer;
        let limit = target.end + 1 - target.start;
        let body = call(config, row, Some((target.start, limit))).text().len();
        let paged = paging(config, row, target.end);
        println!(
            "{:<44} {:<28} {:>9} {:>10} {:>6.1}x",
            short(&row.path),
            format!(
                "{} [{}:{}]",
                clip(&target.name, 16),
                target.start,
                target.end
            ),
            outline + body,
            paged,
            paged as f64 / (outline + body) as f64
        );
        via_outline += outline + body;
        via_paging += paged;
    }
    if via_outline > 0 {
        println!(
            "total: {via_outline} bytes via outline + range, {via_paging} bytes paging from line 1 ({:.1}x less)",
            via_paging as f64 / via_outline as f64
        );
    }
}

/// The replace-a-symbol figure over the code files: bytes written and read
/// back by each way of replacing one function.
fn replace(rows: &[Row]) {
    println!("\nreplace a symbol: bytes the model writes / reads back to replace one function");
    println!(
        "{:<44} {:<24} {:>15} {:>15} {:>15}",
        "file", "function", "edit symbol", "edit old text", "apply_patch"
    );
    let mut totals = [(0usize, 0usize); 3];
    for row in rows {
        let language = Language::detect(&row.path.to_string_lossy(), row.text.as_bytes());
        let Some(tree) = symbols(language, &row.text) else {
            continue;
        };
        let Some((name, target)) = named_function_at(&tree, row.lines as u64 * 2 / 3) else {
            continue;
        };
        let lines: Vec<&str> = row.text.lines().collect();
        let old: Vec<&str> = lines[target.start as usize - 1..target.end as usize].to_vec();
        let comment = if language == Language::Python {
            "#"
        } else {
            "//"
        };
        let indent: String = old
            .get(1)
            .map(|line| line.chars().take_while(|c| c.is_whitespace()).collect())
            .unwrap_or_default();
        let mut new = old.clone();
        let note = format!("{indent}{comment} checked by the caller");
        new.insert(1, &note);
        let (old_text, new_text) = (old.join("\n"), new.join("\n"));
        let symbol =
            serde_json::json!({"file_path": row.name, "symbol": name, "new_string": new_text});
        let edit = serde_json::json!({"file_path": row.name, "old_string": old_text, "new_string": new_text});
        let mut hunk = format!("*** Begin Patch\n*** Update File: {}\n@@\n", row.name);
        let removed = old.iter().map(|line| ('-', line));
        for (sign, line) in removed.chain(new.iter().map(|line| ('+', line))) {
            hunk.push(sign);
            hunk.push_str(line);
            hunk.push('\n');
        }
        hunk.push_str("*** End Patch");
        let patch = serde_json::json!({ "input": hunk });
        let ways = [("edit", symbol), ("edit", edit), ("apply_patch", patch)];
        let mut figures = Vec::new();
        for (tool, args) in &ways {
            let text = args.to_string();
            let Some(answer) = replaced(row, target, tool, &text) else {
                break;
            };
            figures.push((text.len(), answer));
        }
        if figures.len() < ways.len() {
            continue;
        }
        println!(
            "{:<44} {:<24} {:>15} {:>15} {:>15}",
            short(&row.path),
            clip(&name, 24),
            format!("{} / {}", figures[0].0, figures[0].1),
            format!("{} / {}", figures[1].0, figures[1].1),
            format!("{} / {}", figures[2].0, figures[2].1),
        );
        for (total, figure) in totals.iter_mut().zip(&figures) {
            total.0 += figure.0;
            total.1 += figure.1;
        }
    }
    let [by_symbol, by_text, by_patch] = totals;
    if by_symbol.0 > 0 {
        println!(
            "total written / read back: edit symbol {} / {}, edit old text {} / {} ({:.2}x written), apply_patch {} / {} ({:.2}x written)",
            by_symbol.0,
            by_symbol.1,
            by_text.0,
            by_text.1,
            by_text.0 as f64 / by_symbol.0 as f64,
            by_patch.0,
            by_patch.1,
            by_patch.0 as f64 / by_symbol.0 as f64
        );
    }
}

/// The bytes of the answer to `tool` called with `args` on a fresh copy of
/// the file of `row`, after a read of `target`'s lines; none when it fails.
fn replaced(row: &Row, target: &Symbol, tool: &str, args: &str) -> Option<usize> {
    let fs = MemFs::new();
    fs.add_file(&row.name, row.text.as_bytes());
    let mut session = Session::open(r#"{"tools": ["filetools", "apply-patch"]}"#, fs).ok()?;
    let range = serde_json::json!({
        "file_path": row.name,
        "offset": target.start,
        "limit": target.end + 1 - target.start,
    });
    session.call("read", &range.to_string());
    let answer = session.call(tool, args);
    (!answer.is_error).then(|| answer.text().len())
}

/// The function nearest `line` (as [`function_at`] picks it) with its
/// qualified name, as `read` and `edit` take it.
fn named_function_at(tree: &[Symbol], line: u64) -> Option<(String, &Symbol)> {
    fn path<'a>(tree: &'a [Symbol], target: &Symbol, names: &mut Vec<&'a str>) -> bool {
        for symbol in tree {
            names.push(&symbol.name);
            if std::ptr::eq(symbol, target) || path(&symbol.children, target, names) {
                return true;
            }
            names.pop();
        }
        false
    }
    let target = function_at(tree, line)?;
    let mut names = Vec::new();
    path(tree, target, &mut names);
    let named: Vec<&str> = names.into_iter().filter(|n| !n.is_empty()).collect();
    Some((named.join("."), target))
}

/// Bytes of the pages read from line 1 until line `end` has been shown.
fn paging(config: &Config, row: &Row, end: u64) -> usize {
    let mut offset = 1;
    let mut bytes = 0;
    loop {
        let page = call(config, row, Some((offset, config.max_lines)));
        bytes += page.text().len();
        match page.metadata["next_offset"].as_u64() {
            Some(next) if next <= end => offset = next,
            _ => return bytes,
        }
    }
}

/// The function (an entry without members, of a few lines) starting nearest
/// `line`.
fn function_at(tree: &[Symbol], line: u64) -> Option<&Symbol> {
    fn walk<'a>(tree: &'a [Symbol], out: &mut Vec<&'a Symbol>) {
        for symbol in tree {
            let function =
                ["fn", "def", "function", "method", "func", "async def"].contains(&symbol.kind);
            let lines = symbol.end + 1 - symbol.start;
            if function && (3..=MAX_FUNCTION_LINES).contains(&lines) {
                out.push(symbol);
            }
            walk(&symbol.children, out);
        }
    }
    let mut all = Vec::new();
    walk(tree, &mut all);
    all.into_iter().min_by_key(|s| s.start.abs_diff(line))
}

fn clip(name: &str, chars: usize) -> String {
    name.chars().take(chars).collect()
}

fn short(path: &Path) -> String {
    let parts: Vec<_> = path.iter().rev().take(2).collect();
    let text: Vec<_> = parts.iter().rev().map(|p| p.to_string_lossy()).collect();
    clip(&text.join("/"), 44)
}

/// Each source with its files, largest first.
fn sources() -> Vec<(String, Vec<PathBuf>)> {
    let registry = cargo_registry();
    let mut out = vec![
        (
            "Rust: the workspace's dependencies in the cargo registry".to_owned(),
            largest(&registry, "rs"),
        ),
        (
            "C: sources in the cargo registry".to_owned(),
            largest(&registry, "c"),
        ),
        (
            "C headers: /usr/include".to_owned(),
            largest(Path::new("/usr/include"), "h"),
        ),
        (
            "Markdown: documents in the cargo registry".to_owned(),
            largest_any(&registry, "md"),
        ),
    ];
    if let Some(stdlib) = python_stdlib() {
        let mut files = largest(&stdlib, "py");
        let decimal = stdlib.join("_pydecimal.py");
        if decimal.is_file() && !files.contains(&decimal) {
            files.insert(0, decimal);
            files.truncate(PER_SOURCE);
        }
        out.push(("Python: the standard library".to_owned(), files));
    }
    let npm = Path::new("/usr/lib/node_modules/npm");
    if npm.is_dir() {
        out.push((
            "JavaScript: npm's own sources".to_owned(),
            largest(npm, "js"),
        ));
        out.push(("JSON: npm's own files".to_owned(), largest_any(npm, "json")));
    }
    out
}

/// The largest `.ext` files under `root` with a readable number of lines,
/// generated parsers and minified files left out.
fn largest(root: &Path, ext: &str) -> Vec<PathBuf> {
    pick(root, ext, MIN_LINES)
}

/// The largest `.ext` files under `root` that are too large to show whole.
fn largest_any(root: &Path, ext: &str) -> Vec<PathBuf> {
    pick(root, ext, 0)
}

fn pick(root: &Path, ext: &str, min_lines: usize) -> Vec<PathBuf> {
    let mut found = Vec::new();
    collect(root, ext, &mut found, 0);
    found.sort_by_key(|(size, path)| (std::cmp::Reverse(*size), path.clone()));
    let mut names = std::collections::BTreeSet::new();
    let mut picked = Vec::new();
    for (size, path) in found {
        if picked.len() == PER_SOURCE {
            break;
        }
        let name = path.file_name().map(std::ffi::OsStr::to_owned);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let lines = text.lines().count();
        let generated = name.as_ref().is_some_and(|n| {
            let n = n.to_string_lossy();
            n == "parser.c"
                || n.contains(".min.")
                || n.contains("tables")
                || n.contains("generated")
        });
        // The same file of another crate version says nothing new.
        if generated
            || lines < min_lines
            || lines > MAX_LINES
            || size < 40_000
            || !names.insert(name)
        {
            continue;
        }
        picked.push(path);
    }
    picked
}

fn collect(dir: &Path, ext: &str, found: &mut Vec<(u64, PathBuf)>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && depth < 12 && !path.ends_with("site-packages") {
            collect(&path, ext, found, depth + 1);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == ext) {
            found.push((entry.metadata().map_or(0, |m| m.len()), path));
        }
    }
}
