//! The guest's layers hold. `src/lib.rs` lists the layers from the top
//! down; here every path of the code (test code aside) is read — `crate::`,
//! `super::` and `self::` paths, paths through a child module, and paths
//! through a name a `use` gave a module — and the test fails on:
//!
//! - a path that goes to a layer above its own;
//! - a path that names an item at the crate root (a root re-export used
//!   inside) instead of the layer it lives in;
//! - a cycle between files of different folders;
//! - code after a test module, or a module kept both as `x.rs` and `x/`.
//!
//! The reading is lexical: comments, strings and characters are blanked
//! first, so only code counts. Test code is what `cfg(test)` (alone or in
//! `all(test, …)`) marks, at any depth.

#![expect(
    clippy::disallowed_methods,
    reason = "the test reads the guest's own sources; the rule against std::fs is for the guest's code"
)]
#![expect(
    clippy::unwrap_used,
    reason = "a test fails loudly on an unexpected error"
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
    let tree = Tree::read(&src());
    let layers = layers(&src());
    let wrong = tree.against_order(&layers);
    assert!(
        wrong.is_empty(),
        "imports against the layers' order (src/lib.rs):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layers_listed_are_the_crates_modules() {
    let tree = Tree::read(&src());
    let listed: BTreeSet<String> = layers(&src()).into_iter().collect();
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
    let wrong = Tree::read(&src()).root_items();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_cycle_joins_files_of_different_folders() {
    let crossing = Tree::read(&src()).crossing_cycles();
    assert!(
        crossing.is_empty(),
        "cycles between folders:\n{}",
        crossing.join("\n")
    );
}

#[test]
fn test_modules_come_last_and_each_module_has_one_form() {
    let wrong = Tree::read(&src()).form();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The checks themselves, on small crates written here: each breaks one
/// rule in a way a lexical reading could miss.
mod the_checks {
    use super::*;

    /// A crate in a scratch directory of its own: `files` by path under
    /// `src/`.
    fn crate_of(name: &str, files: &[(&str, &str)]) -> PathBuf {
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("layers-{name}-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        dir
    }

    const LIB: &str =
        "//! 1. [`top`]\n//! 2. [`low`]\npub mod low;\npub mod top;\npub use top::Thing;\n";

    fn against_order(files: &[(&str, &str)]) -> Vec<String> {
        let mut all = vec![("lib.rs", LIB)];
        all.extend_from_slice(files);
        let dir = crate_of("order", &all);
        let found = Tree::read(&dir).against_order(&layers(&dir));
        fs::remove_dir_all(&dir).unwrap();
        found
    }

    #[test]
    fn an_upward_path_is_found_however_it_is_spelled() {
        for (low, what) in [
            ("use crate::top::Thing;\n", "a crate path"),
            ("use crate::{top::{self, Thing}};\n", "a use tree"),
            (
                "fn f() -> crate::top::Thing { todo!() }\n",
                "an inline path",
            ),
            (
                "use crate as c;\nfn f() -> c::top::Thing { todo!() }\n",
                "the crate renamed",
            ),
            (
                "use super::top;\nfn f() -> top::Thing { todo!() }\n",
                "a module brought in by use",
            ),
            (
                "pub mod inner {\n    use crate::top::Thing;\n}\n",
                "an inline module",
            ),
            (
                "#[cfg(not(test))]\nfn f() -> crate::top::Thing { todo!() }\n",
                "cfg(not(test))",
            ),
            (
                "#[cfg(any(test, fuzzing))]\nuse crate::top::Thing;\n",
                "cfg(any(test, …))",
            ),
            (
                "pub(in crate) mod hidden;\n",
                "a module with a restricted visibility",
            ),
        ] {
            let files = [
                ("low.rs", low),
                ("low/hidden.rs", "use crate::top::Thing;\n"),
                ("top.rs", "pub struct Thing;\n"),
            ];
            assert!(!against_order(&files).is_empty(), "{what}: {low}");
        }
    }

    #[test]
    fn test_code_and_downward_paths_pass() {
        for low in [
            "#[cfg(test)]\nmod tests {\n    use crate::top::Thing;\n}\n",
            "#[cfg(all(test, feature = \"x\"))]\nfn helper() -> crate::top::Thing { todo!() }\n",
            "pub mod inner {\n    #[cfg(test)]\n    mod tests {\n        use crate::top::Thing;\n    }\n}\n",
            "const QUOTE: char = '\\'';\nconst S: &str = \"crate::top::Thing\";\n// crate::top::Thing\n",
            "const R: &str = r#\"crate::top::Thing\"#;\nfn f<'a>(x: &'a str) -> &'a str { x }\n",
        ] {
            let files = [
                ("low.rs", low),
                ("top.rs", "use crate::low;\npub struct Thing;\n"),
            ];
            assert_eq!(against_order(&files), Vec::<String>::new(), "{low}");
        }
    }

    #[test]
    fn a_root_reexport_used_inside_is_named() {
        for low in ["use crate::Thing;\n", "use super::Thing;\n"] {
            let dir = crate_of(
                "root",
                &[
                    ("lib.rs", LIB),
                    ("low.rs", low),
                    ("top.rs", "pub struct Thing;\n"),
                ],
            );
            let found = Tree::read(&dir).root_items();
            fs::remove_dir_all(&dir).unwrap();
            assert_eq!(found.len(), 1, "{low}");
        }
    }

    fn crossing(files: &[(&str, &str)]) -> Vec<String> {
        let mut all = vec![("lib.rs", "//! 1. [`top`]\npub mod top;\n")];
        all.extend_from_slice(files);
        let dir = crate_of("cycle", &all);
        let found = Tree::read(&dir).crossing_cycles();
        fs::remove_dir_all(&dir).unwrap();
        found
    }

    #[test]
    fn a_cycle_between_sibling_folders_is_found() {
        let found = crossing(&[
            ("top/mod.rs", "pub mod one;\npub mod two;\n"),
            (
                "top/one/mod.rs",
                "use super::two;\npub fn f() { two::g() }\n",
            ),
            ("top/two/mod.rs", "pub fn g() { super::one::f() }\n"),
        ]);
        assert_eq!(found, ["top/one/mod.rs <-> top/two/mod.rs"]);
    }

    #[test]
    fn a_path_through_a_name_use_gave_reaches_the_deepest_module() {
        // `one::inner::h` reaches inner.rs, not one/mod.rs where `one` is.
        let found = crossing(&[
            ("top/mod.rs", "pub mod one;\npub mod two;\n"),
            ("top/one/mod.rs", "pub mod inner;\n"),
            ("top/one/inner.rs", "pub fn h() { crate::top::two::g() }\n"),
            (
                "top/two/mod.rs",
                "use crate::top::one;\npub fn g() { one::inner::h() }\n",
            ),
        ]);
        assert_eq!(found, ["top/one/inner.rs <-> top/two/mod.rs"]);
    }

    #[test]
    fn code_after_tests_and_a_module_in_two_forms_are_named() {
        let dir = crate_of(
            "form",
            &[
                ("lib.rs", "//! 1. [`top`]\npub mod top;\n"),
                (
                    "top/mod.rs",
                    "mod x;\n#[cfg(test)]\nmod tests {}\nfn late() {}\n",
                ),
                ("top/x.rs", "\n"),
                ("top/x/unused.rs", "\n"),
            ],
        );
        let found = Tree::read(&dir).form();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 2, "{found:?}");
    }

    #[test]
    fn cycles_are_the_groups_that_reach_each_other() {
        let edges = BTreeMap::from([
            ("a".to_owned(), BTreeSet::from(["b".to_owned()])),
            (
                "b".to_owned(),
                BTreeSet::from(["a".to_owned(), "c".to_owned()]),
            ),
        ]);
        assert_eq!(cycles(&edges), [vec!["a".to_owned(), "b".to_owned()]]);
    }
}

/// The layers, top first, as `lib.rs` lists them: lines `//! N. ` naming
/// the module in backticks.
fn layers(src: &Path) -> Vec<String> {
    let lib = fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let layers: Vec<String> = lib
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("//! ")?;
            let (number, rest) = rest.trim_start().split_once(". ")?;
            number.parse::<u32>().ok()?;
            let name = rest.split('`').nth(1)?;
            Some(name.to_owned())
        })
        .collect();
    assert!(
        !layers.is_empty(),
        "src/lib.rs lists its layers as `//! 1. `name` ...` lines"
    );
    layers
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

/// One file, read.
#[derive(Debug, Default)]
struct File {
    /// Its text with comments, strings and characters blanked.
    blank: String,
    /// The module the file is.
    module: Vec<String>,
    /// Inline module bodies: where each opens and closes, and its path.
    bodies: Vec<(usize, usize, Vec<String>)>,
    /// Byte ranges of test code.
    tests: Vec<(usize, usize)>,
}

impl File {
    /// The module the code at `offset` is in.
    fn module_at(&self, offset: usize) -> Vec<String> {
        self.bodies
            .iter()
            .filter(|(open, close, _)| *open < offset && offset < *close)
            .max_by_key(|(_, _, path)| path.len())
            .map_or_else(|| self.module.clone(), |(_, _, path)| path.clone())
    }

    /// Whether the code at `offset` is test code.
    fn in_test(&self, offset: usize) -> bool {
        self.tests
            .iter()
            .any(|(from, to)| *from <= offset && offset < *to)
    }
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
    /// Whether segments were left after the deepest module: it names an
    /// item there.
    item: bool,
}

/// The crate's modules, read from `lib.rs` down through `mod` items.
struct Tree {
    src: PathBuf,
    modules: BTreeMap<Vec<String>, Module>,
    files: BTreeMap<String, File>,
    code_after_tests: Vec<String>,
}

impl Tree {
    fn read(src: &Path) -> Self {
        let mut tree = Tree {
            src: src.to_path_buf(),
            modules: BTreeMap::new(),
            files: BTreeMap::new(),
            code_after_tests: Vec::new(),
        };
        tree.file(&[], "lib.rs".to_owned(), false);
        tree
    }

    /// Reads `file`, the module `path`, and the modules it declares.
    fn file(&mut self, path: &[String], file: String, test: bool) {
        let text = fs::read_to_string(self.src.join(&file))
            .unwrap_or_else(|e| panic!("{file}: {e} (modules are found by their names)"));
        let mut read = File {
            blank: blank(&text),
            module: path.to_vec(),
            ..File::default()
        };
        let dir = if file == "lib.rs" || file.ends_with("/mod.rs") {
            Path::new(&file)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        } else {
            PathBuf::from(file.trim_end_matches(".rs"))
        };
        self.insert(path, &file, test);
        let end = read.blank.len();
        let mut declared = Vec::new();
        self.block(&file, &mut read, (0, end), path, test, &mut declared);
        for (child, test) in declared {
            // A module declared in an inline module lives in its folder.
            let dir = child[path.len()..child.len() - 1]
                .iter()
                .fold(dir.clone(), |dir, inline| dir.join(inline));
            let name = child.last().expect("a child has a name");
            let flat = dir.join(format!("{name}.rs"));
            let found = if self.src.join(&flat).is_file() {
                flat
            } else {
                dir.join(name).join("mod.rs")
            };
            self.file(&child, found.to_string_lossy().into_owned(), test);
        }
        self.files.insert(file, read);
    }

    fn insert(&mut self, path: &[String], file: &str, test: bool) {
        self.modules.insert(
            path.to_vec(),
            Module {
                path: path.to_vec(),
                file: file.to_owned(),
                test,
            },
        );
    }

    /// The items of the block `span` of `read`, the body of module `path`:
    /// inline modules are read in, test items noted, and the modules kept
    /// in files of their own added to `declared`.
    fn block(
        &mut self,
        file: &str,
        read: &mut File,
        span: (usize, usize),
        path: &[String],
        test: bool,
        declared: &mut Vec<(Vec<String>, bool)>,
    ) {
        for item in items(&read.blank, span) {
            if item.after_tests && !item.test {
                let line = read.blank[..item.start].matches('\n').count() + 1;
                self.code_after_tests.push(format!(
                    "{file}:{line}: code after a test module; move it above the tests"
                ));
            }
            if item.test {
                read.tests.push((item.start, item.end));
            }
            let Some((name, body)) = item.module else {
                continue;
            };
            let mut child = path.to_vec();
            child.push(name);
            let test = test || item.test;
            match body {
                Some((open, close)) => {
                    self.insert(&child, file, test);
                    read.bodies.push((open, close, child.clone()));
                    self.block(file, read, (open + 1, close - 1), &child, test, declared);
                }
                None => declared.push((child, test)),
            }
        }
    }

    /// Every path of the code outside test code.
    fn uses(&self) -> Vec<Use> {
        let mut uses = Vec::new();
        for (name, file) in &self.files {
            if self.modules.get(&file.module).is_some_and(|m| m.test) {
                continue;
            }
            let found = paths(&file.blank);
            // The names `use` gives modules, by the module they are given in.
            let mut aliases: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
            for path in found.iter().filter(|p| p.alias.is_some()) {
                let from = file.module_at(path.offset);
                if let Some((to, false)) = self.resolve(&from, &path.text, &aliases) {
                    let alias = path.alias.clone().expect("filtered");
                    aliases.insert((from, alias), to);
                }
            }
            for path in found {
                if file.in_test(path.offset) {
                    continue;
                }
                let from = file.module_at(path.offset);
                let in_test = (file.module.len()..=from.len())
                    .any(|n| self.modules.get(&from[..n]).is_some_and(|m| m.test));
                if in_test {
                    continue;
                }
                let Some((to, item)) = self.resolve(&from, &path.text, &aliases) else {
                    continue;
                };
                uses.push(Use {
                    file: name.clone(),
                    line: file.blank[..path.offset].matches('\n').count() + 1,
                    path: path.text,
                    from,
                    to,
                    item,
                });
            }
        }
        uses
    }

    /// The deepest module `path`, written in module `from`, reaches, and
    /// whether segments were left after it; `None` for a path that is not
    /// the crate's (`std::…`, another crate's).
    fn resolve(
        &self,
        from: &[String],
        path: &str,
        aliases: &BTreeMap<(Vec<String>, String), Vec<String>>,
    ) -> Option<(Vec<String>, bool)> {
        let mut segments = path.split("::").peekable();
        let first = *segments.peek()?;
        let mut at: Vec<String> = match first {
            "crate" => {
                segments.next();
                Vec::new()
            }
            "self" => {
                segments.next();
                from.to_vec()
            }
            "super" => from.to_vec(),
            name => {
                let mut child = from.to_vec();
                child.push(name.to_owned());
                if self.modules.contains_key(&child) {
                    from.to_vec()
                } else {
                    let to = aliases.get(&(from.to_vec(), name.to_owned()))?;
                    segments.next();
                    to.clone()
                }
            }
        };
        while segments.peek() == Some(&"super") {
            segments.next();
            at.pop();
        }
        let mut item = false;
        for segment in segments {
            let mut next = at.clone();
            next.push(segment.to_owned());
            if !self.modules.contains_key(&next) {
                item = true;
                break;
            }
            at = next;
        }
        Some((at, item))
    }

    /// The paths that go to a layer above their own.
    fn against_order(&self, layers: &[String]) -> Vec<String> {
        let rank = |module: &[String]| {
            module
                .first()
                .and_then(|top| layers.iter().position(|l| l == top))
        };
        self.uses()
            .into_iter()
            .filter_map(|u| {
                let (from, to) = (rank(&u.from)?, rank(&u.to)?);
                (to < from).then(|| {
                    format!(
                        "{}:{}: {} ({}) reaches {} ({}), a layer above it",
                        u.file,
                        u.line,
                        u.path,
                        layers[from],
                        u.to.join("::"),
                        layers[to]
                    )
                })
            })
            .collect()
    }

    /// The paths from a module that name an item at the crate root.
    fn root_items(&self) -> Vec<String> {
        self.uses()
            .into_iter()
            .filter(|u| !u.from.is_empty() && u.to.is_empty() && u.item)
            .map(|u| {
                format!(
                    "{}:{}: {} names an item at the crate root; name the module it lives in",
                    u.file, u.line, u.path
                )
            })
            .collect()
    }

    /// The groups of files, of more than one folder, that import each other.
    fn crossing_cycles(&self) -> Vec<String> {
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for u in self.uses() {
            let Some(to) = self.modules.get(&u.to) else {
                continue;
            };
            if to.file != u.file {
                edges.entry(u.file).or_default().insert(to.file.clone());
            }
        }
        let folder = |file: &str| {
            Path::new(file)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        };
        cycles(&edges)
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
            .collect()
    }

    /// Code after test modules, and modules kept both as `x.rs` and `x/`.
    fn form(&self) -> Vec<String> {
        let mut wrong = self.code_after_tests.clone();
        let files: BTreeSet<&String> = self.modules.values().map(|m| &m.file).collect();
        for file in files {
            let path = self.src.join(file);
            if path
                .file_name()
                .is_some_and(|n| n != "mod.rs" && n != "lib.rs")
                && path.with_extension("").is_dir()
            {
                wrong.push(format!(
                    "{file} beside {}/: keep one, as x/mod.rs",
                    file.trim_end_matches(".rs")
                ));
            }
        }
        wrong
    }
}

/// An item of a block, as far as these checks need it.
struct Item {
    /// Where it starts (its first attribute) and ends.
    start: usize,
    end: usize,
    /// Whether `cfg(test)` is on it.
    test: bool,
    /// Whether a test module came before it in its block.
    after_tests: bool,
    /// A module item: its name and, when inline, where its body opens and
    /// closes.
    module: Option<(String, Option<(usize, usize)>)>,
}

/// The items of the block `span` of a blanked file.
fn items(blank: &str, (from, to): (usize, usize)) -> Vec<Item> {
    let bytes = blank.as_bytes();
    let mut items = Vec::new();
    let (mut i, mut seen_test) = (from, false);
    let (mut start, mut test) = (None, false);
    while i < to {
        let c = bytes[i];
        if c.is_ascii_whitespace() || c == b';' {
            i += 1;
            continue;
        }
        if c == b'#' && matches!(bytes.get(i + 1), Some(b'[' | b'!')) {
            let open = if bytes[i + 1] == b'!' { i + 2 } else { i + 1 };
            let end = matching(bytes, open);
            let attribute: String = blank[i..end].split_whitespace().collect();
            assert!(
                !attribute.starts_with("#[path"),
                "#[path] moves a module away from its name; keep the default layout"
            );
            if attribute.starts_with("#[cfg(test)") || attribute.starts_with("#[cfg(all(test,") {
                test = true;
            }
            if bytes[i + 1] == b'[' {
                start.get_or_insert(i);
            }
            i = end;
            continue;
        }
        // An item: it ends at its `;` or at the close of its first block.
        let begin = *start.get_or_insert(i);
        let mut j = i;
        let mut body = None;
        while j < to {
            match bytes[j] {
                b';' => {
                    j += 1;
                    break;
                }
                b'{' => {
                    let close = matching(bytes, j);
                    body = Some((j, close));
                    j = close;
                    break;
                }
                b'(' | b'[' => j = matching(bytes, j),
                _ => j += 1,
            }
        }
        let module = module_name(&blank[i..j]).map(|name| (name, body));
        let is_test_module = test && module.as_ref().is_some_and(|(_, b)| b.is_some());
        items.push(Item {
            start: begin,
            end: j,
            test,
            after_tests: seen_test,
            module,
        });
        seen_test |= is_test_module;
        (start, test) = (None, false);
        i = j;
    }
    items
}

/// The name of the module an item declares: `mod x`, `pub mod x`,
/// `pub(crate) mod x`, `pub(in crate::a) mod x`.
fn module_name(item: &str) -> Option<String> {
    let mut rest = item.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = after.trim_start();
        if rest.starts_with('(') {
            let close = matching(rest.as_bytes(), 0);
            rest = rest[close..].trim_start();
        }
    }
    let rest = rest.strip_prefix("mod")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    words(rest).next().map(str::to_owned)
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

/// A path of the code: as written, where, and for a `use` leaf the name it
/// gives.
#[derive(Debug)]
struct Found {
    text: String,
    offset: usize,
    alias: Option<String>,
}

/// Every path of `blank`: the leaves of `use` trees, and the paths of two
/// or more segments elsewhere.
fn paths(blank: &str) -> Vec<Found> {
    let bytes = blank.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary =
            i == 0 || !(ident(bytes[i - 1]) || bytes[i - 1] == b':' || bytes[i - 1] == b'$');
        if !boundary || !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
            i += 1;
            continue;
        }
        if blank[i..].starts_with("use") && !bytes.get(i + 3).copied().is_some_and(ident) {
            let end = blank[i..].find(';').map_or(bytes.len(), |e| i + e);
            for leaf in expand(&tight(&blank[i + 3..end])) {
                let (path, alias) = if let Some((path, alias)) = leaf.split_once(" as ") {
                    (path.to_owned(), alias.to_owned())
                } else {
                    let last = leaf.rsplit("::").next().unwrap_or(&leaf).to_owned();
                    (leaf, last)
                };
                found.push(Found {
                    text: path,
                    offset: i,
                    alias: (alias != "_" && alias != "*").then_some(alias),
                });
            }
            i = end;
            continue;
        }
        let mut end = i;
        let mut segments = 0;
        loop {
            let word = blank[end..].len()
                - blank[end..]
                    .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
                    .len();
            end += word;
            segments += 1;
            let next = blank[end..].strip_prefix("::");
            match next {
                Some(rest) if rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') => {
                    end += 2;
                }
                _ => break,
            }
        }
        if segments > 1 {
            found.push(Found {
                text: blank[i..end].to_owned(),
                offset: i,
                alias: None,
            });
        }
        i = end.max(i + 1);
    }
    found
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

/// The leaves of a tight `use` tree: `a::{b,c::{self,D}}` gives `a::b`,
/// `a::c`, `a::c::D`; a rename stays as ` as ` after its leaf.
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        return vec![
            tree.replace("::self as ", " as ")
                .trim_end_matches("::self")
                .to_owned(),
        ];
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
            expand(part).into_iter().map(move |leaf| {
                if leaf == "self" {
                    head.to_owned()
                } else if let Some(alias) = leaf.strip_prefix("self as ") {
                    format!("{head} as {alias}")
                } else if head.is_empty() {
                    leaf
                } else {
                    format!("{head}::{leaf}")
                }
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
        for byte in &mut out[from..to.min(bytes.len())] {
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
            match char_literal(source, i) {
                Some(end) => {
                    wipe(i, end, &mut out);
                    i = end;
                }
                // A lifetime or a label.
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written")
}

/// The end of a character literal starting at `i` (`'a'`, `'\''`,
/// `'\u{1F600}'`, `'é'`); `None` for a lifetime.
fn char_literal(source: &str, i: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let close = if bytes.get(i + 1) == Some(&b'\\') {
        if bytes.get(i + 2) == Some(&b'u') {
            i + 3 + bytes[i + 3..].iter().position(|&b| b == b'}')? + 1
        } else if bytes.get(i + 2) == Some(&b'x') {
            i + 5
        } else {
            i + 3
        }
    } else {
        i + 1 + source[i + 1..].chars().next()?.len_utf8()
    };
    (bytes.get(close) == Some(&b'\'')).then_some(close + 1)
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
