//! The guest's layers hold. `src/lib.rs` lists the layers from the top
//! down; here every `crate::` and `super::` path of the code (test modules
//! aside) is read, and the test fails on:
//!
//! - a path that goes to a layer above its own;
//! - a `crate::` path that names no layer (a root re-export used inside);
//! - a cycle between files of different folders;
//! - code after a test module, or a module kept both as `x.rs` and `x/`.
//!
//! The reading is lexical: comments, strings and characters are blanked
//! first, so only code counts.

#![expect(
    clippy::disallowed_methods,
    reason = "the test reads the guest's own sources; the rule against std::fs is for the guest's code"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The guest's sources.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_path_goes_to_its_own_layer_or_one_below() {
    let tree = Tree::read();
    let layers = Tree::layers();
    let rank = |module: &[String]| {
        module
            .first()
            .and_then(|top| layers.iter().position(|l| l == top))
    };
    let mut wrong = Vec::new();
    for use_ in tree.uses() {
        let (Some(from), Some(to)) = (rank(&use_.from), rank(&use_.to)) else {
            continue;
        };
        if to < from {
            wrong.push(format!(
                "{}:{}: {} ({}) uses {} ({}), a layer above it",
                use_.file,
                use_.line,
                use_.path,
                layers[from],
                use_.to.join("::"),
                layers[to]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers' order (src/lib.rs):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layers_listed_are_the_crates_modules() {
    let tree = Tree::read();
    let listed: BTreeSet<String> = Tree::layers().into_iter().collect();
    let top: BTreeSet<String> = tree
        .modules
        .values()
        .filter(|m| m.path.len() == 1 && !m.test)
        .map(|m| m.path[0].clone())
        .collect();
    assert_eq!(
        listed, top,
        "src/lib.rs lists a layer for every module of the root, and no other"
    );
}

#[test]
fn code_names_a_layer_never_a_root_reexport() {
    let tree = Tree::read();
    let layers: BTreeSet<String> = Tree::layers().into_iter().collect();
    let wrong: Vec<String> = tree
        .uses()
        .into_iter()
        .filter(|u| u.path.starts_with("crate::"))
        .filter(|u| {
            !u.path
                .split("::")
                .nth(1)
                .is_some_and(|first| layers.contains(first))
        })
        .map(|u| {
            format!(
                "{}:{}: {} names no layer; name the module it lives in",
                u.file, u.line, u.path
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_cycle_joins_files_of_different_folders() {
    let tree = Tree::read();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for use_ in tree.uses() {
        let Some(to) = tree.modules.get(&use_.to) else {
            continue;
        };
        if to.file != use_.file {
            edges
                .entry(use_.file.clone())
                .or_default()
                .insert(to.file.clone());
        }
    }
    let folder = |file: &str| {
        Path::new(file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    };
    let crossing: Vec<String> = cycles(&edges)
        .into_iter()
        .filter(|files| {
            files
                .iter()
                .map(|f| folder(f))
                .collect::<BTreeSet<_>>()
                .len()
                > 1
        })
        .map(|files| files.join(" <-> "))
        .collect();
    assert!(
        crossing.is_empty(),
        "cycles between folders:\n{}",
        crossing.join("\n")
    );
}

#[test]
fn test_modules_come_last_and_each_module_has_one_form() {
    let tree = Tree::read();
    let mut wrong = tree.code_after_tests.clone();
    for module in tree.modules.values() {
        let path = src().join(&module.file);
        if path
            .file_name()
            .is_some_and(|n| n != "mod.rs" && n != "lib.rs")
            && path.with_extension("").is_dir()
        {
            wrong.push(format!(
                "{} beside {}/: keep one, as x/mod.rs",
                module.file,
                module.file.trim_end_matches(".rs")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_sees_paths_and_only_code() {
    let source = "use crate::a::{b, c::{self, D}, base as e};\n// crate::x::y\nlet s = \"crate::z\"; let c = '}'; fn f<'a>() { super::e::F }\n";
    let blank = blank(source);
    assert!(!blank.contains("crate::x") && !blank.contains("crate::z"));
    assert_eq!(blank.lines().count(), 3);
    let mut found = Vec::new();
    scan(&blank, &mut |path, _line| found.push(path));
    assert_eq!(
        found,
        [
            "crate::a::b",
            "crate::a::c",
            "crate::a::c::D",
            "crate::a::base",
            "super::e::F"
        ]
    );
    let edges = BTreeMap::from([
        ("a".to_owned(), BTreeSet::from(["b".to_owned()])),
        (
            "b".to_owned(),
            BTreeSet::from(["a".to_owned(), "c".to_owned()]),
        ),
    ]);
    assert_eq!(cycles(&edges), [vec!["a".to_owned(), "b".to_owned()]]);
}

/// A module of the crate.
#[derive(Debug)]
struct Module {
    /// Its path from the root, `["view", "read"]`.
    path: Vec<String>,
    /// The file it is in, relative to `src/`.
    file: String,
    /// Whether it is test code (a `cfg(test)` module or one inside it).
    test: bool,
}

/// One path the code uses.
#[derive(Debug)]
struct Use {
    /// The file and line it is on.
    file: String,
    line: usize,
    /// As written.
    path: String,
    /// The module it is in.
    from: Vec<String>,
    /// The module it reaches (the deepest one its segments name).
    to: Vec<String>,
}

/// The crate's modules, read from `lib.rs` down through `mod` items.
struct Tree {
    modules: BTreeMap<Vec<String>, Module>,
    /// Blanked sources of the files, by file.
    sources: BTreeMap<String, String>,
    code_after_tests: Vec<String>,
}

impl Tree {
    fn read() -> Self {
        let mut tree = Tree {
            modules: BTreeMap::new(),
            sources: BTreeMap::new(),
            code_after_tests: Vec::new(),
        };
        tree.file(&[], "lib.rs".to_owned(), false);
        tree
    }

    /// Reads `file`, the module `path`, and the modules it declares.
    fn file(&mut self, path: &[String], file: String, test: bool) {
        let text = fs::read_to_string(src().join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let blank = blank(&text);
        let dir = if file == "lib.rs" || file.ends_with("/mod.rs") {
            Path::new(&file)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        } else {
            PathBuf::from(file.trim_end_matches(".rs"))
        };
        self.modules.insert(
            path.to_vec(),
            Module {
                path: path.to_vec(),
                file: file.clone(),
                test,
            },
        );
        for item in items(&blank) {
            if item.after_tests && !item.test {
                self.code_after_tests.push(format!(
                    "{file}:{}: code after a test module; move it above the tests",
                    item.line
                ));
            }
            let Some((name, inline)) = &item.module else {
                continue;
            };
            let mut child = path.to_vec();
            child.push(name.clone());
            let test = test || item.test;
            if *inline {
                self.modules.insert(
                    child.clone(),
                    Module {
                        path: child,
                        file: file.clone(),
                        test,
                    },
                );
            } else {
                let flat = dir.join(format!("{name}.rs"));
                let nested = dir.join(name).join("mod.rs");
                let found = if src().join(&flat).is_file() {
                    flat
                } else {
                    nested
                };
                self.file(&child, found.to_string_lossy().into_owned(), test);
            }
        }
        self.sources.insert(file, blank);
    }

    /// The layers, top first, as `lib.rs` lists them: lines `//! N. `
    /// naming the module in backticks.
    fn layers() -> Vec<String> {
        let lib = fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
        let layers: Vec<String> = lib
            .lines()
            .filter_map(|line| {
                let rest = line.strip_prefix("//! ")?;
                let (number, rest) = rest.split_once(". ")?;
                number.parse::<u32>().ok()?;
                let name = rest.split('`').nth(1)?;
                Some(name.to_owned())
            })
            .collect();
        assert!(
            layers.len() > 3,
            "src/lib.rs lists its layers as `//! 1. `name` ...` lines"
        );
        layers
    }

    /// Every path of the code outside test modules.
    fn uses(&self) -> Vec<Use> {
        let mut uses = Vec::new();
        for (file, blank) in &self.sources {
            let module = self
                .modules
                .values()
                .filter(|m| &m.file == file)
                .min_by_key(|m| m.path.len())
                .expect("every file read is a module");
            if module.test {
                continue;
            }
            let mut inline = Vec::new();
            for (path, line, inside) in scan_in_modules(blank) {
                inline.clear();
                inline.extend(inside);
                let mut from = module.path.clone();
                from.extend(inline.iter().cloned());
                let in_test = (module.path.len()..=from.len())
                    .any(|n| self.modules.get(&from[..n]).is_some_and(|m| m.test));
                if in_test {
                    continue;
                }
                let to = self.resolve(&from, &path);
                uses.push(Use {
                    file: file.clone(),
                    line,
                    path,
                    from,
                    to,
                });
            }
        }
        uses
    }

    /// The deepest module `path`, written in module `from`, reaches.
    fn resolve(&self, from: &[String], path: &str) -> Vec<String> {
        let mut segments = path.split("::").peekable();
        let mut at: Vec<String> = match segments.peek() {
            Some(&"crate") => {
                segments.next();
                Vec::new()
            }
            Some(&"self") => {
                segments.next();
                from.to_vec()
            }
            _ => from.to_vec(),
        };
        while segments.peek() == Some(&"super") {
            segments.next();
            at.pop();
        }
        for segment in segments {
            let mut next = at.clone();
            next.push(segment.to_owned());
            if !self.modules.contains_key(&next) {
                break;
            }
            at = next;
        }
        at
    }
}

/// A top-level item of a file, as far as these checks need it.
struct Item {
    line: usize,
    /// Whether a `cfg(test)` attribute is on it.
    test: bool,
    /// Whether a test module came before it.
    after_tests: bool,
    /// A module item: its name and whether its body is inline.
    module: Option<(String, bool)>,
}

/// The top-level items of a blanked file.
fn items(blank: &str) -> Vec<Item> {
    let bytes = blank.as_bytes();
    let mut items = Vec::new();
    let (mut i, mut depth, mut test, mut seen_test) = (0, 0usize, false, false);
    let mut start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if depth == 0 && c == b'#' && bytes.get(i + 1) == Some(&b'[') {
            let end = matching(bytes, i + 1);
            let attribute = &blank[i..end];
            if attribute.starts_with("#[cfg(") && words(attribute).any(|w| w == "test") {
                test = true;
            }
            i = end;
            continue;
        }
        if depth == 0 && start && c.is_ascii_alphabetic() {
            let line = blank[..i].matches('\n').count() + 1;
            let rest = &blank[i..];
            let head: Vec<&str> = words(rest).take(4).collect();
            let module = head
                .iter()
                .take(3)
                .position(|w| *w == "mod")
                .and_then(|at| {
                    let name = head.get(at + 1)?;
                    let after = rest.find(name).map_or("", |at| &rest[at + name.len()..]);
                    Some(((*name).to_owned(), after.trim_start().starts_with('{')))
                });
            let is_test_module = test && module.as_ref().is_some_and(|(_, inline)| *inline);
            items.push(Item {
                line,
                test,
                after_tests: seen_test,
                module,
            });
            seen_test |= is_test_module;
            test = false;
            start = false;
        }
        match c {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && c == b'}' {
                    start = true;
                }
            }
            b';' if depth == 0 => start = true,
            _ => {}
        }
        i += 1;
    }
    items
}

/// The index just past the bracket matching the one at `open`.
fn matching(bytes: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (at, &c) in bytes.iter().enumerate().skip(open) {
        match c {
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
    }
    bytes.len()
}

/// The identifiers of `text`, in order.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Every path of `blank` with its line and the inline modules it is in
/// (as names from the file's own module down).
fn scan_in_modules(blank: &str) -> Vec<(String, usize, Vec<String>)> {
    // Where each inline `mod name {` body opens and closes.
    let bytes = blank.as_bytes();
    let mut bodies: Vec<(usize, usize, String)> = Vec::new();
    let mut at = 0;
    while let Some(found) = blank[at..].find("mod ") {
        let i = at + found;
        at = i + 4;
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let Some(name) = words(&blank[i + 4..]).next() else {
            continue;
        };
        let after = &blank[i + 4..];
        let name_end = i + 4 + after.find(name).unwrap_or(0) + name.len();
        if blank[name_end..].trim_start().starts_with('{') {
            let open = name_end + blank[name_end..].find('{').unwrap_or(0);
            bodies.push((open, matching(bytes, open), name.to_owned()));
        }
    }
    let mut found = Vec::new();
    scan_at(blank, &mut |path, offset| {
        let inside = bodies
            .iter()
            .filter(|(open, close, _)| *open < offset && offset < *close)
            .map(|(_, _, name)| name.clone())
            .collect();
        let line = blank[..offset].matches('\n').count() + 1;
        found.push((path, line, inside));
    });
    found
}

/// Every path of `blank` (use trees expanded) with its line.
fn scan(blank: &str, each: &mut dyn FnMut(String, usize)) {
    scan_at(blank, &mut |path, offset| {
        each(path, blank[..offset].matches('\n').count() + 1);
    });
}

/// Every path of `blank` that starts at `crate::`, `super::` or `self::`,
/// with its byte offset; a `use` tree gives each of its leaves.
fn scan_at(blank: &str, each: &mut dyn FnMut(String, usize)) {
    let bytes = blank.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        if boundary && blank[i..].starts_with("use ") {
            let end = blank[i..].find(';').map_or(bytes.len(), |e| i + e);
            let tree = tight(&blank[i + 4..end]);
            for leaf in expand(&tree) {
                if ["crate::", "super::", "self::"]
                    .iter()
                    .any(|p| leaf.starts_with(p))
                {
                    each(leaf, i);
                }
            }
            i = end;
            continue;
        }
        if boundary
            && let Some(prefix) = ["crate::", "super::", "self::"]
                .iter()
                .find(|p| blank[i..].starts_with(**p))
        {
            let mut end = i + prefix.len();
            while end < bytes.len() {
                let rest = &blank[end..];
                let word = rest.len()
                    - rest
                        .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
                        .len();
                end += word;
                if word > 0
                    && blank[end..].starts_with("::")
                    && blank[end + 2..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                {
                    end += 2;
                } else {
                    break;
                }
            }
            each(blank[i..end].to_owned(), i);
            i = end;
            continue;
        }
        i += 1;
    }
}

/// A `use` tree with no spaces but those of `as`: `a::{b, c as d}` is
/// `a::{b,c as d}`.
fn tight(tree: &str) -> String {
    let spaced = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    for (at, c) in spaced.char_indices() {
        let before = spaced[..at].chars().next_back();
        let after = spaced[at + 1..].chars().next();
        let punctuation = |c: Option<char>| c.is_some_and(|c| "{},:".contains(c));
        if c == ' ' && (punctuation(before) || punctuation(after)) {
            continue;
        }
        out.push(c);
    }
    out
}

/// The leaves of a `use` tree written without spaces: `a::{b,c::{self,D}}`
/// gives `a::b`, `a::c`, `a::c::D`; `as` renames are dropped.
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        let leaf = tree.split(" as ").next().unwrap_or(tree);
        return vec![leaf.trim_end_matches("::self").to_owned()];
    };
    let head = tree[..open].trim_end_matches("::");
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut parts, mut depth, mut last) = (Vec::new(), 0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[last..at]);
                last = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[last..]);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| {
            expand(part)
                .into_iter()
                .map(move |leaf| match leaf.as_str() {
                    "self" => head.to_owned(),
                    _ if head.is_empty() => leaf,
                    _ => format!("{head}::{leaf}"),
                })
        })
        .collect()
}

/// `source` with its comments, strings and character literals blanked to
/// spaces (line ends kept), so what is left is code.
fn blank(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = bytes.to_vec();
    let wipe = |from: usize, to: usize, out: &mut Vec<u8>| {
        for byte in &mut out[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |e| i + e);
            wipe(i, end, &mut out);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0, i);
            while j < bytes.len() {
                if bytes[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if bytes[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            wipe(i, j, &mut out);
            i = j;
        } else if let Some(end) = raw_string(bytes, i) {
            wipe(i, end, &mut out);
            i = end;
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            wipe(i, j + 1, &mut out);
            i = j + 1;
        } else if bytes[i] == b'\'' {
            // A character literal, not a lifetime: it closes within a few
            // bytes (an escape, or one UTF-8 character).
            let close = if bytes.get(i + 1) == Some(&b'\\') {
                bytes[i + 2..]
                    .iter()
                    .position(|&b| b == b'\'')
                    .map(|e| i + 2 + e)
            } else {
                let width = source[i + 1..].chars().next().map_or(1, char::len_utf8);
                (bytes.get(i + 1 + width) == Some(&b'\'')).then_some(i + 1 + width)
            };
            match close {
                Some(end) => {
                    wipe(i, end + 1, &mut out);
                    i = end + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written")
}

/// The end of a raw string (`r"…"`, `r#"…"#`, `br"…"`) starting at `i`.
fn raw_string(bytes: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
        return None;
    }
    let start = if bytes[i..].starts_with(b"br") {
        i + 2
    } else if bytes[i] == b'r' {
        i + 1
    } else {
        return None;
    };
    let hashes = bytes[start..].iter().take_while(|&&b| b == b'#').count();
    if bytes.get(start + hashes) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = start + hashes + 1;
    bytes[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map(|at| body + at + close.len())
}

/// The groups of files that reach each other (strongly connected, two or
/// more), each sorted.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(at) = todo.pop() {
            for next in edges.get(at).into_iter().flatten() {
                if seen.insert(next) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<&String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for node in &nodes {
        let group: Vec<String> = nodes
            .iter()
            .filter(|other| reached[node].contains(*other) && reached[*other].contains(*node))
            .map(|other| (*other).clone())
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}
