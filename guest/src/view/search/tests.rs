//! `grep`, `find` and the batch `read` through a session: what counts as
//! read, and what does not.

use std::fmt::Write as _;

use crate::Config;
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

fn session(files: &[(&str, &[u8])]) -> Session<MemFs> {
    let fs = MemFs::new();
    for (path, bytes) in files {
        fs.add_file(path, bytes);
    }
    Session::new(Config::default(), fs)
}

const SOURCE: &[u8] = b"fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";

#[test]
fn a_line_grep_showed_is_edited_without_a_read() {
    let mut s = session(&[("src/a.rs", SOURCE)]);
    let found = s.call("grep", r#"{"pattern":"let x","output_mode":"content"}"#);
    assert!(
        found.text().contains("2:    let x = 1;"),
        "{}",
        found.text()
    );
    let edit = s.call(
        "edit",
        r#"{"file_path":"src/a.rs","old_string":"let x = 1;","new_string":"let x = 2;"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
}

#[test]
fn names_alone_count_as_no_read() {
    for call in [
        r#"{"pattern":"let x"}"#,
        r#"{"pattern":"let x","output_mode":"count"}"#,
    ] {
        let mut s = session(&[("src/a.rs", SOURCE)]);
        let found = s.call("grep", call);
        assert!(found.text().starts_with("src/a.rs"), "{}", found.text());
        let edit = s.call(
            "edit",
            r#"{"file_path":"src/a.rs","old_string":"let x = 1;","new_string":"let x = 2;"}"#,
        );
        assert_eq!(edit.metadata["error"], "not_read", "{}", edit.text());
    }
    let mut s = session(&[("src/a.rs", SOURCE)]);
    s.call("find", r#"{"pattern":"*.rs"}"#);
    let edit = s.call(
        "edit",
        r#"{"file_path":"src/a.rs","old_string":"let x = 1;","new_string":"let x = 2;"}"#,
    );
    assert_eq!(edit.metadata["error"], "not_read", "{}", edit.text());
}

#[test]
fn many_files_come_in_the_order_asked_with_errors_in_place() {
    let mut big = String::new();
    for n in 0..3000 {
        let _ = writeln!(big, "line {n} of a long file");
    }
    let mut s = session(&[("a.txt", b"small\n"), ("big.txt", big.as_bytes())]);
    let result = s.call(
        "read",
        r#"{"file_paths":["big.txt","missing.txt","a.txt"]}"#,
    );
    let text = result.text();
    let big_at = text.find("==> big.txt <==").unwrap();
    let missing_at = text.find("==> missing.txt <==").unwrap();
    let small_at = text.find("==> a.txt <==\n1\tsmall").unwrap();
    assert!(big_at < missing_at && missing_at < small_at, "{text}");
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("[3 files, in the order asked: big.txt in part ("),
        "{last}"
    );
    assert!(
        last.contains("missing.txt not read (not_found); a.txt whole ("),
        "{last}"
    );
    let budget = Config::default().budget_bytes() as usize;
    assert!(text.len() <= budget, "{} bytes", text.len());
    // Each file shown counts as read.
    let edit = s.call(
        "edit",
        r#"{"file_path":"a.txt","old_string":"small","new_string":"tiny"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
}

#[test]
fn many_files_refuse_other_arguments_and_too_many_paths() {
    let mut s = session(&[("a.txt", b"x\n")]);
    let with_offset = s.call("read", r#"{"file_paths":["a.txt"],"offset":3}"#);
    assert!(
        with_offset.text().contains("file_paths must be alone"),
        "{}",
        with_offset.text()
    );
    let many: Vec<String> = (0..21).map(|n| format!("\"f{n}\"")).collect();
    let too_many = s.call("read", &format!(r#"{{"file_paths":[{}]}}"#, many.join(",")));
    assert!(
        too_many.text().contains("a list of 1 to 20 paths"),
        "{}",
        too_many.text()
    );
    let as_list = s.call("read", r#"{"file_path":["a.txt"]}"#);
    assert!(
        as_list.text().starts_with("==> a.txt <=="),
        "{}",
        as_list.text()
    );
}

/// The `HostFs` calls of a test file system that wraps a `MemFs` (as its
/// field `0`) and changes only its reads or its batch scans.
macro_rules! forwarded_to_memfs {
    () => {
        fn stat(&self, path: &str) -> Result<crate::fs::host::Metadata, crate::fs::host::FsError> {
            self.0.stat(path)
        }
        fn list_dir(
            &self,
            path: &str,
        ) -> Result<Vec<crate::fs::host::DirEntry>, crate::fs::host::FsError> {
            self.0.list_dir(path)
        }
        changes_forwarded_to_memfs!();
    };
}

/// The changes of a test file system that wraps a `MemFs` (as its field
/// `0`), handed to it.
macro_rules! changes_forwarded_to_memfs {
    () => {
        fn write_file(
            &self,
            path: &str,
            data: &[u8],
            precondition: &crate::fs::host::Precondition,
        ) -> Result<crate::fs::host::Metadata, crate::fs::host::FsError> {
            self.0.write_file(path, data, precondition)
        }
        fn remove_file(
            &self,
            path: &str,
            precondition: &crate::fs::host::Precondition,
        ) -> Result<(), crate::fs::host::FsError> {
            self.0.remove_file(path, precondition)
        }
        fn create_dir(&self, path: &str) -> Result<(), crate::fs::host::FsError> {
            self.0.create_dir(path)
        }
        fn rename(
            &self,
            source: &str,
            destination: &str,
            precondition: &crate::fs::host::Precondition,
        ) -> Result<crate::fs::host::Metadata, crate::fs::host::FsError> {
            self.0.rename(source, destination, precondition)
        }
    };
}

/// A file system whose file `gone.txt` vanishes after its first chunk was
/// read, as when another process removes it mid-search.
struct Vanishing(MemFs);

impl crate::fs::host::HostFs for Vanishing {
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, crate::fs::host::FsError> {
        if path == "gone.txt" && offset > 0 {
            return Err(crate::fs::host::FsError::NotFound);
        }
        self.0.read(path, offset, len)
    }
    forwarded_to_memfs!();
}

#[test]
fn a_file_gone_mid_search_keeps_the_lines_shown_and_is_counted() {
    let fs = MemFs::new();
    let mut big = String::new();
    for n in 0..20_000 {
        let _ = writeln!(big, "line {n}");
    }
    fs.add_file("gone.txt", big.as_bytes());
    fs.add_file("kept.txt", b"line kept\n");
    let mut s = Session::new(Config::default(), Vanishing(fs));
    let result = s.call(
        "grep",
        r#"{"pattern":"^line 1$|kept","output_mode":"content"}"#,
    );
    let text = result.text();
    assert!(
        text.starts_with("gone.txt\n2:line 1\nkept.txt [version "),
        "{text}"
    );
    assert!(text.contains("[lines 1-2 of 2:"), "{text}");
    assert!(
        text.ends_with("[also not searched: 1 file that could not be read]"),
        "{text}"
    );
    assert!(!result.is_error);
}

/// A file system that scans many files at once, as the Rust host does:
/// each by [`BatchScanner`](crate::view::search::batch::BatchScanner).
/// The outcomes of each scan started, by ticket, until collected.
type Scans = std::cell::RefCell<
    Vec<Option<Vec<Result<crate::fs::host::ScanOutcome, crate::fs::host::FsError>>>>,
>;

struct Batching(MemFs, Scans);

/// `fs`'s listing of `path` as a host lists names and kinds alone: no
/// file's size or time.
fn names_of(
    fs: &MemFs,
    path: &str,
) -> Result<Vec<crate::fs::host::DirEntry>, crate::fs::host::FsError> {
    let mut entries = crate::fs::host::HostFs::list_dir(fs, path)?;
    for entry in &mut entries {
        entry.size = 0;
        entry.mtime_ns = 0;
    }
    Ok(entries)
}

/// The reads and the names-only listing of a test file system over a
/// `MemFs` (as its field `0`), the rest forwarded to it.
macro_rules! listed_by_names {
    () => {
        fn read(
            &self,
            path: &str,
            offset: u64,
            len: u32,
        ) -> Result<Vec<u8>, crate::fs::host::FsError> {
            self.0.read(path, offset, len)
        }
        fn list_names(
            &self,
            path: &str,
        ) -> Result<Vec<crate::fs::host::DirEntry>, crate::fs::host::FsError> {
            names_of(&self.0, path)
        }
        forwarded_to_memfs!();
    };
}

impl crate::fs::host::HostFs for Batching {
    listed_by_names!();
    fn scan_start(
        &self,
        files: &[crate::fs::host::ScanFile],
        request: &crate::fs::host::ScanRequest,
    ) -> Option<u64> {
        let scanner = crate::view::search::batch::BatchScanner::new(request)?;
        let outcomes = files
            .iter()
            .map(|file| scanner.scan(&self.0, file))
            .collect();
        let mut scans = self.1.borrow_mut();
        scans.push(Some(outcomes));
        Some(scans.len() as u64 - 1)
    }
    fn scan_results(
        &self,
        ticket: u64,
    ) -> Vec<Result<crate::fs::host::ScanOutcome, crate::fs::host::FsError>> {
        let mut scans = self.1.borrow_mut();
        usize::try_from(ticket)
            .ok()
            .and_then(|at| scans.get_mut(at))
            .and_then(Option::take)
            .unwrap_or_default()
    }
}

/// A tree of 600 files over 20 directories, matches in most, with binary
/// files, an ignored directory between every two others and a file that
/// is not UTF-8: what the walk leaves out keeps growing past any cut.
fn batch_tree() -> MemFs {
    let fs = MemFs::new();
    let mut ignore = String::new();
    for d in 0..20 {
        // Walked right after d{d}/.
        let _ = writeln!(ignore, "d{d:02}-skip/");
        fs.add_file(&format!("d{d:02}-skip/x.txt"), b"needle\n");
        for f in 0..30 {
            let body = match f % 7 {
                0 => b"\x00\x01binary needle".to_vec(),
                1 => b"nothing here\n".to_vec(),
                2 => b"caf\xe9 needle\n".to_vec(),
                _ => format!("a needle {d} {f}\nmore\nneedle again\n").into_bytes(),
            };
            fs.add_file(&format!("d{d:02}/f{f:02}.txt"), &body);
        }
    }
    fs.add_file(".gitignore", ignore.as_bytes());
    fs
}

/// A file system that lists names and kinds alone when asked to, and
/// scans nothing itself.
struct NamesOnly(MemFs);

impl crate::fs::host::HostFs for NamesOnly {
    listed_by_names!();
}

#[test]
fn a_host_that_scans_in_batches_gives_the_answers_of_one_that_does_not() {
    let config = |tokens: u64| Config {
        max_output_tokens: tokens,
        ..Config::default()
    };
    for mode in ["count", "files_with_matches", "content"] {
        for tokens in [120, 600, 1_000_000] {
            for (offset, multiline) in [(0, false), (37, false), (0, true)] {
                let call = format!(
                    r#"{{"pattern":"needle","output_mode":"{mode}","offset":{offset},"multiline":{multiline}}}"#
                );
                let mut plain = Session::new(config(tokens), batch_tree());
                let batching = Batching(batch_tree(), Scans::default());
                let mut batched = Session::new(config(tokens), batching);
                let mut named = Session::new(config(tokens), NamesOnly(batch_tree()));
                let (one, many) = (plain.call("grep", &call), batched.call("grep", &call));
                assert_eq!(one.text(), many.text(), "{call} at {tokens} tokens");
                assert_eq!(one.metadata_json(), many.metadata_json(), "{call}");
                let by_names = named.call("grep", &call);
                assert_eq!(
                    one.text(),
                    by_names.text(),
                    "{call} at {tokens} tokens, by names"
                );
                assert_eq!(one.metadata_json(), by_names.metadata_json(), "{call}");
                assert!(
                    !batched.fs().1.borrow().is_empty(),
                    "no batch was asked for"
                );
            }
        }
    }
}

/// A file system that walks handed-off directories as a host with threads
/// does, each by [`walk_handed_off`](crate::paths::walk::handoff::walk_handed_off)
/// over the same files; or, when `.2`, answers records that fit nothing.
/// The records of each walk started, by ticket, until collected.
struct Walking<F = MemFs>(F, std::cell::RefCell<Vec<Option<Vec<String>>>>, bool);

impl<F: crate::fs::host::HostFs> crate::fs::host::HostFs for Walking<F> {
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, crate::fs::host::FsError> {
        self.0.read(path, offset, len)
    }
    fn walk_start(&self, dirs: &[String], request: &str) -> Option<u64> {
        let records = if self.2 {
            vec!["{}".to_owned(); dirs.len()]
        } else {
            crate::paths::walk::handoff::walk_handed_off(&self.0, dirs, request)
        };
        let mut walks = self.1.borrow_mut();
        walks.push(Some(records));
        Some(walks.len() as u64 - 1)
    }
    fn walk_results(&self, ticket: u64) -> Vec<String> {
        let mut walks = self.1.borrow_mut();
        usize::try_from(ticket)
            .ok()
            .and_then(|at| walks.get_mut(at))
            .and_then(Option::take)
            .unwrap_or_default()
    }
    forwarded_to_memfs!();
}

/// Twelve directories at the root and ten more under one of them, with
/// ignore files at three levels, ignored directories in most (more than
/// an answer names), hidden ones, symlinks and files of several kinds.
fn walk_tree() -> MemFs {
    let fs = MemFs::new();
    fs.add_file(".gitignore", b"gen/\n*.log\nzz-skip/\n");
    fs.add_file("top.rs", b"fn top() {}\n");
    fs.add_file("zz-skip/x.rs", b"x");
    for d in 0..12 {
        let dir = format!("p{d:02}");
        for f in 0..5 {
            fs.add_file(&format!("{dir}/f{f}.rs"), b"fn f() {}\n");
        }
        fs.add_file(&format!("{dir}/notes.log"), b"log\n");
        if d % 2 == 0 {
            fs.add_file(&format!("{dir}/gen/out.rs"), b"generated\n");
        }
        if d % 3 == 0 {
            fs.add_file(&format!("{dir}/.hidden/h.rs"), b"hidden\n");
            fs.add_special(
                &format!("{dir}/link.rs"),
                crate::fs::host::FileKind::Symlink,
            );
        }
    }
    fs.add_file("p03/.gitignore", b"*.tmp\n!keep.tmp\n");
    fs.add_file("p03/a.tmp", b"t\n");
    fs.add_file("p03/keep.tmp", b"k\n");
    for q in 0..10 {
        fs.add_file(&format!("p05/deep/q{q}/g.txt"), b"g\n");
        fs.add_file(&format!("p05/deep/q{q}/gen/g.rs"), b"g\n");
    }
    fs.add_file("p05/deep/.ignore", b"q7/\n");
    fs
}

/// `call` answered by a session walking `tree()` alone and by one whose
/// host walks the directories handed off (or, when `garbled`, answers
/// records that fit nothing), and whether anything was handed off.
fn alone_and_handed_off<F: crate::fs::host::HostFs>(
    tree: impl Fn() -> F,
    garbled: bool,
    call: &str,
) -> (
    crate::answers::result::ToolResult,
    crate::answers::result::ToolResult,
    bool,
) {
    let mut plain = Session::new(Config::default(), tree());
    let mut walking = Session::new(
        Config::default(),
        Walking(tree(), std::cell::RefCell::default(), garbled),
    );
    let (one, many) = (plain.call("find", call), walking.call("find", call));
    let handed = !walking.fs().1.borrow().is_empty();
    (one, many, handed)
}

#[test]
fn a_host_that_walks_directories_elsewhere_gives_the_answers_of_one_that_does_not() {
    for call in [
        r#"{"pattern":"*","head_limit":1000}"#,
        r#"{"pattern":"**/*.rs","head_limit":1000}"#,
        r#"{"pattern":"*","head_limit":7,"offset":3}"#,
        r#"{"pattern":"*","hidden":true,"head_limit":1000}"#,
        r#"{"pattern":"*","no_ignore":true,"head_limit":1000}"#,
        r#"{"pattern":"*.txt","path":"p05/deep"}"#,
        r#"{"pattern":"nothing-matches-this"}"#,
    ] {
        let (one, many, handed) = alone_and_handed_off(walk_tree, false, call);
        assert_eq!(one.text(), many.text(), "{call}");
        assert_eq!(one.metadata_json(), many.metadata_json(), "{call}");
        assert!(handed, "{call}: nothing was handed off");
    }
    // The directories named come from three walkers' records, the count
    // from all of them.
    let mut walking = Session::new(
        Config::default(),
        Walking(walk_tree(), std::cell::RefCell::default(), false),
    );
    let all = walking.call("find", r#"{"pattern":"*","head_limit":1000}"#);
    assert!(
        all.text().contains(
            ".gitignore \"gen/\": 15 directories (p00/gen/, p02/gen/, p04/gen/ and 12 more)"
        ),
        "{}",
        all.text()
    );
}

#[test]
fn records_from_a_host_that_fit_nothing_leave_the_walk_to_the_guest() {
    let call = r#"{"pattern":"*","head_limit":1000}"#;
    let (one, other, handed) = alone_and_handed_off(walk_tree, true, call);
    assert_eq!(one.text(), other.text());
    assert!(handed);
}

/// A file system that, as macOS's and Windows' usually do, finds a name
/// spelt in another case: `stat` and `read` of `.gitignore` reach
/// `.GitIgnore`. Listings give names as they are.
struct CaseBlind(MemFs);

impl CaseBlind {
    /// `path` as it is spelt on disk.
    fn spelt(&self, path: &str) -> String {
        if crate::fs::host::HostFs::stat(&self.0, path).is_ok() {
            return path.to_owned();
        }
        let (dir, name) = path.rsplit_once('/').unwrap_or((".", path));
        crate::fs::host::HostFs::list_dir(&self.0, dir)
            .ok()
            .and_then(|entries| {
                entries
                    .into_iter()
                    .find(|entry| entry.name.eq_ignore_ascii_case(name))
            })
            .map_or_else(
                || path.to_owned(),
                |entry| crate::paths::walk::rules::join(dir, &entry.name),
            )
    }
}

impl crate::fs::host::HostFs for CaseBlind {
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, crate::fs::host::FsError> {
        self.0.read(&self.spelt(path), offset, len)
    }
    fn stat(&self, path: &str) -> Result<crate::fs::host::Metadata, crate::fs::host::FsError> {
        self.0.stat(&self.spelt(path))
    }
    fn list_dir(
        &self,
        path: &str,
    ) -> Result<Vec<crate::fs::host::DirEntry>, crate::fs::host::FsError> {
        crate::fs::host::HostFs::list_dir(&self.0, path)
    }
    changes_forwarded_to_memfs!();
}

#[test]
fn walkers_take_the_ignore_files_the_walk_found_not_those_a_case_blind_file_system_finds() {
    let tree = || {
        let fs = walk_tree();
        // Not an ignore file by its name, where none has it; found as
        // `.gitignore` by asking.
        crate::fs::host::HostFs::remove_file(
            &fs,
            ".gitignore",
            &crate::fs::host::Precondition::Any,
        )
        .expect("the root's .gitignore");
        fs.add_file(".GitIgnore", b"*.rs\n");
        CaseBlind(fs)
    };
    let call = r#"{"pattern":"*","head_limit":1000}"#;
    let (one, many, handed) = alone_and_handed_off(tree, false, call);
    assert!(one.text().contains("p00/f0.rs"), "{}", one.text());
    assert_eq!(one.text(), many.text());
    assert!(handed, "nothing was handed off");
}
