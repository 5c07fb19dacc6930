//! H1 and S2: sessions are cheap and independent; the component is compiled
//! once and cached; a trap or a deadline is a tool error and a fresh session,
//! never a dead host; the component imports nothing beyond the allowed set.

use std::path::Path;
use std::time::Duration;

use filetools::{
    FindArgs, GrepArgs, LoadSource, OutputMode, Placement, ReadArgs, ReplaceArgs, SymbolEditArgs,
    Tools,
};

use crate::{read_args, root_and_outside, scratch, tools};

#[test]
fn raw_and_typed_reads_agree() {
    let (root, _) = root_and_outside("session-typed");
    std::fs::write(root.join("a.txt"), "1\n2\n3\n").unwrap();
    let tools = tools(&root);
    let raw = tools
        .session()
        .unwrap()
        .call("read", r#"{"file_path":"a.txt","offset":"2","limit":1}"#);
    let typed = tools.session().unwrap().read(&ReadArgs {
        file_path: "a.txt".into(),
        offset: Some(2),
        limit: Some(1),
        ..ReadArgs::default()
    });
    assert_eq!(raw, typed);
    assert_eq!(
        raw.text(),
        "2\t2\n[lines 2-2 of 3; continue with offset=3]\n[version eab4f622e2bf4ecb-6]"
    );
    assert_eq!(raw.metadata["next_offset"], 3);
}

#[test]
fn raw_and_typed_block_reads_and_symbol_edits_agree() {
    let (root, _) = root_and_outside("session-typed-symbol");
    let source = "fn a() {\n    1\n}\n\nfn b() {\n    2\n}\n";
    std::fs::write(root.join("m.rs"), source).unwrap();
    let tools = tools(&root);
    let (mut raw, mut typed) = (tools.session().unwrap(), tools.session().unwrap());
    let read = raw.call("read", r#"{"file_path":"m.rs","offset":6,"block":true}"#);
    let block = ReadArgs {
        file_path: "m.rs".into(),
        offset: Some(6),
        block: true,
        ..ReadArgs::default()
    };
    assert_eq!(read, typed.read(&block));
    assert!(
        read.text().starts_with("[b: lines 5-7 of 7]\nfn b() {\n"),
        "{}",
        read.text()
    );
    let edit = raw.call(
        "edit",
        r#"{"file_path":"m.rs","symbol":"b","new_string":"fn b() {\n    20\n}"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
    std::fs::write(root.join("m.rs"), source).unwrap();
    // The typed session read the file before it was put back: its view is
    // the same text, so the same edit lands the same way.
    let typed_edit = typed.edit_symbol(&SymbolEditArgs {
        file_path: "m.rs".into(),
        symbol: "b".into(),
        new_string: "fn b() {\n    20\n}".into(),
        position: Placement::Replace,
        ..SymbolEditArgs::default()
    });
    assert_eq!(edit.text(), typed_edit.text());
    assert_eq!(
        std::fs::read_to_string(root.join("m.rs")).unwrap(),
        "fn a() {\n    1\n}\n\nfn b() {\n    20\n}\n"
    );
}

#[test]
fn the_host_asks_which_seen_files_changed_and_is_told_the_lines_once() {
    let (root, _) = root_and_outside("session-changes");
    std::fs::write(root.join("a.txt"), "one\ntwo\n").unwrap();
    let tools = tools(&root);
    let mut session = tools.session().unwrap();
    session.call("read", r#"{"file_path":"a.txt"}"#);
    assert_eq!(
        session.changes().text(),
        "No file you have seen changed on disk since your view."
    );
    std::fs::write(root.join("a.txt"), "one\nTWO\nthree\n").unwrap();
    let told = session.changes();
    assert!(
        told.text()
            .starts_with("Changed on disk since your view:\na.txt (now version "),
        "{}",
        told.text()
    );
    assert!(told.text().ends_with("2\tTWO\n3\tthree"), "{}", told.text());
    assert_eq!(told.metadata["changed_on_disk"]["shown"][0], "a.txt");
    // Told once; the lines shown count as seen: an edit of them needs no read.
    assert!(session.changes().text().starts_with("No file"));
    let edit = session.call(
        "edit",
        r#"{"file_path":"a.txt","old_string":"three","new_string":"3"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
}

#[test]
fn a_typed_replace_runs_dry_then_changes_every_file_in_one_step() {
    let (root, _) = root_and_outside("session-replace");
    std::fs::write(root.join("a.txt"), "old one\n").unwrap();
    std::fs::write(root.join("b.txt"), "old two\nold three\n").unwrap();
    let tools = tools(&root);
    let mut session = tools.session().unwrap();
    let mut args = ReplaceArgs {
        pattern: "old".into(),
        replacement: "new".into(),
        ..ReplaceArgs::default()
    };
    let dry = session.replace(&args);
    assert!(
        dry.text()
            .starts_with("Dry run: 3 occurrences of \"old\" in 2 files"),
        "{}",
        dry.text()
    );
    args.apply = true;
    args.expected_count = Some(3);
    let done = session.replace(&args);
    assert!(
        done.text().starts_with("Replaced 3 occurrences in 2 files"),
        "{}",
        done.text()
    );
    assert_eq!(
        std::fs::read_to_string(root.join("b.txt")).unwrap(),
        "new two\nnew three\n"
    );
    session.call("undo", r#"{"file_path":"a.txt"}"#);
    assert_eq!(
        std::fs::read_to_string(root.join("a.txt")).unwrap(),
        "old one\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("b.txt")).unwrap(),
        "old two\nold three\n"
    );
}

#[test]
fn raw_and_typed_searches_agree() {
    let (root, _) = root_and_outside("session-typed-search");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "fn a() {}\nfn b() {}\n").unwrap();
    let tools = tools(&root);
    let raw = tools.session().unwrap().call(
        "grep",
        r#"{"pattern":"fn b","output_mode":"content","-B":1,"path":"src"}"#,
    );
    let typed = tools.session().unwrap().grep(&GrepArgs {
        pattern: "fn b".into(),
        output_mode: OutputMode::Content,
        before: Some(1),
        path: Some("src".into()),
        ..GrepArgs::default()
    });
    assert_eq!(raw, typed);
    assert!(
        raw.text().contains("1-fn a() {}\n2:fn b() {}\n"),
        "{}",
        raw.text()
    );
    let found = tools.session().unwrap().find(&FindArgs {
        pattern: "*.rs".into(),
        ..FindArgs::default()
    });
    assert!(found.text().starts_with("src/a.rs\n"), "{}", found.text());
}

#[test]
fn a_typed_zero_limit_is_refused_like_a_raw_one() {
    let (root, _) = root_and_outside("session-typed-zero");
    std::fs::write(root.join("a.txt"), "1\n").unwrap();
    let mut session = tools(&root).session().unwrap();
    let typed = session.read(&ReadArgs {
        file_path: "a.txt".into(),
        limit: Some(0),
        ..ReadArgs::default()
    });
    let raw = session.call("read", r#"{"file_path":"a.txt","limit":0}"#);
    assert!(typed.is_error);
    assert_eq!(typed, raw);
}

#[test]
fn the_first_start_loads_the_build_time_machine_code_and_caches_it() {
    let (root, _) = root_and_outside("session-cache");
    let cache = scratch("session-cache-dir");
    let build = || {
        Tools::builder()
            .root(&root)
            .cache_dir(&cache)
            .build()
            .unwrap()
    };
    let first = build();
    assert_eq!(first.load_source(), LoadSource::Precompiled);
    let second = build();
    assert_eq!(second.load_source(), LoadSource::Cached);
    // The cached file is mapped: another process replacing it (always by a
    // rename) leaves the loaded component working. A corrupt replacement is
    // not trusted: the build-time machine code takes its place.
    for entry in std::fs::read_dir(&cache).unwrap() {
        let path = entry.unwrap().path();
        let temp = path.with_extension("replacement");
        std::fs::write(&temp, b"garbage").unwrap();
        std::fs::rename(&temp, &path).unwrap();
    }
    std::fs::write(root.join("a.txt"), "ok\n").unwrap();
    assert!(reads_a_file(&second));
    drop((first, second));
    let third = build();
    assert_eq!(third.load_source(), LoadSource::Precompiled);
    assert!(reads_a_file(&third));
    // Its digest checked out once, at the fourth start; a byte changed in
    // place since (same size) is caught all the same at the next.
    let fourth = build();
    assert_eq!(fourth.load_source(), LoadSource::Cached);
    drop((third, fourth));
    let artifact = std::fs::read_dir(&cache)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|ext| ext == "cwasm"))
        .unwrap();
    let mut bytes = std::fs::read(&artifact).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&artifact)
        .and_then(|mut file| std::io::Write::write_all(&mut file, &bytes))
        .unwrap();
    let damaged = build();
    assert_eq!(damaged.load_source(), LoadSource::Precompiled);
    let again = build();
    assert_eq!(again.load_source(), LoadSource::Cached);
    let compiled = Tools::builder().root(&root).no_cache().build().unwrap();
    assert_eq!(compiled.load_source(), LoadSource::Compiled);
    assert!(reads_a_file(&compiled));
}

#[test]
fn a_cache_others_may_write_or_inside_the_root_is_refused_with_a_reason() {
    use std::os::unix::fs::PermissionsExt as _;
    let (root, _) = root_and_outside("session-cache-refused");
    std::fs::write(root.join("a.txt"), "ok\n").unwrap();
    let open = scratch("session-cache-open");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let inside = root.join("cache");
    for (dir, why) in [
        (&open, "others may write to it (mode 777)"),
        (&inside, "it lies inside the workspace root"),
    ] {
        let tools = Tools::builder().root(&root).cache_dir(dir).build().unwrap();
        assert_eq!(tools.load_source(), LoadSource::Precompiled);
        let refusal = tools.cache_refusal().unwrap_or_default();
        assert!(refusal.contains(why), "{refusal}");
        assert!(reads_a_file(&tools));
    }
    assert_eq!(
        std::fs::read_dir(&open).unwrap().count(),
        0,
        "nothing was cached"
    );
    assert!(
        !inside.exists(),
        "the directory inside the root was not made"
    );
}

/// Whether a fresh session of `tools` reads `a.txt` without an error.
fn reads_a_file(tools: &Tools) -> bool {
    !tools
        .session()
        .unwrap()
        .call("read", &read_args("a.txt"))
        .is_error
}

/// Tools whose memory limit (24 MiB) `big.txt` (64 MiB, one line, read
/// whole) exceeds, and `small.txt` beside it.
fn tools_over_a_file_too_large_for_memory(root: &Path) -> Tools {
    std::fs::write(root.join("big.txt"), "m".repeat(64 << 20)).unwrap();
    std::fs::write(root.join("small.txt"), "fine\n").unwrap();
    Tools::builder()
        .root(root)
        .memory_limit(24 << 20)
        .config_json(r#"{"max_output_tokens": 100000000, "max_line_chars": 100000000}"#)
        .unwrap()
        .build()
        .unwrap()
}

#[test]
fn hitting_the_memory_limit_is_a_tool_error_that_keeps_the_sessions_memory() {
    let (root, _) = root_and_outside("session-memory");
    let tools = tools_over_a_file_too_large_for_memory(&root);
    let mut session = tools.session().unwrap();
    let read = session.call("read", &read_args("small.txt"));
    assert!(!read.is_error, "{}", read.text());
    let written = session.call("write", r#"{"file_path": "new.txt", "content": "one\n"}"#);
    assert!(!written.is_error, "{}", written.text());
    let edited = session.call(
        "edit",
        r#"{"file_path": "small.txt", "old_string": "fine", "new_string": "finer"}"#,
    );
    assert!(!edited.is_error, "{}", edited.text());

    let result = session.call("read", &read_args("big.txt"));
    assert!(result.is_error, "{}", result.text());
    assert_eq!(result.metadata["error"], "guest_trap");
    assert_eq!(result.metadata["cause"], "memory");
    assert!(
        result.text().starts_with(
            "Error: reading big.txt stopped: it needed more than the 24 MiB of memory a session may use. The session still knows"
        ),
        "{}",
        result.text()
    );

    // The ledger survived: the file changed before the trap is edited
    // again without reading it; and so did the history, versions and all:
    // both edits and the write are undone.
    let edited = session.call(
        "edit",
        r#"{"file_path": "small.txt", "old_string": "finer", "new_string": "finest"}"#,
    );
    assert!(!edited.is_error, "{}", edited.text());
    for _ in 0..2 {
        let undone = session.call("undo", &read_args("small.txt"));
        assert!(!undone.is_error, "{}", undone.text());
    }
    assert_eq!(
        std::fs::read_to_string(root.join("small.txt")).unwrap(),
        "fine\n"
    );
    let undone = session.call("undo", &read_args("new.txt"));
    assert!(!undone.is_error, "{}", undone.text());
    assert!(!root.join("new.txt").exists());
    // And what the session keeps is still saved whole.
    let saved = session.save().unwrap();
    assert!(saved.contains("small.txt"), "{saved}");
}

#[test]
fn arguments_too_large_for_memory_are_answered_by_the_file_they_name() {
    let (root, _) = root_and_outside("session-huge-arguments");
    let tools = tools_over_a_file_too_large_for_memory(&root);
    let mut session = tools.session().unwrap();
    let content = "w".repeat(40 << 20);
    let arguments = format!(r#"{{"file_path": "huge.txt", "content": "{content}"}}"#);
    let written = session.call("write", &arguments);
    assert!(written.is_error);
    assert_eq!(
        written.metadata["error"],
        "guest_trap",
        "{}",
        written.text()
    );
    let text = written.text();
    assert!(
        text.contains("huge.txt") && text.contains("24 MiB"),
        "{text}"
    );
    assert!(
        !text.contains("backtrace") && !text.contains("TrapCause"),
        "{text}"
    );
    assert!(!root.join("huge.txt").exists());
    // The next call has a live instance.
    let read = session.call("read", &read_args("small.txt"));
    assert!(!read.is_error, "{}", read.text());
}

#[test]
fn a_trap_in_a_restored_session_keeps_the_restored_memory() {
    let (root, _) = root_and_outside("session-restored");
    let tools = tools_over_a_file_too_large_for_memory(&root);
    let mut first = tools.session().unwrap();
    assert!(!first.call("read", &read_args("small.txt")).is_error);
    let saved = first.save().unwrap();

    let mut second = tools.session().unwrap();
    second.restore(&saved).unwrap();
    let trapped = second.call("read", &read_args("big.txt"));
    assert_eq!(trapped.metadata["error"], "guest_trap");
    assert_eq!(second.save().unwrap(), saved);
}

#[test]
fn a_call_past_its_deadline_is_interrupted_and_the_host_lives_on() {
    let (root, _) = root_and_outside("session-deadline");
    // 512 MiB without a newline, text at the start (so it is read as text)
    // and sparse on disk after it: skipping to line 2 scans it all.
    std::fs::write(root.join("huge.bin"), "x".repeat(16 * 1024)).unwrap();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(root.join("huge.bin"))
        .unwrap();
    file.set_len(512 << 20).unwrap();
    std::fs::write(root.join("small.txt"), "fine\n").unwrap();
    let tools = Tools::builder()
        .root(&root)
        .call_timeout(Duration::from_millis(20))
        .build()
        .unwrap();
    let mut session = tools.session().unwrap();
    let result = session.call("read", r#"{"file_path":"huge.bin","offset":2}"#);
    assert!(result.is_error, "{}", result.text());
    assert!(
        result.text().starts_with(
            "Error: reading huge.bin stopped: it ran longer than the 20 ms a call may take."
        ),
        "{}",
        result.text()
    );
    let after = session.call("read", &read_args("small.txt"));
    assert!(!after.is_error, "{}", after.text());
}

#[test]
fn sessions_are_independent() {
    let (root, _) = root_and_outside("session-many");
    std::fs::write(root.join("a.txt"), "a\n").unwrap();
    let tools = tools(&root);
    let mut sessions: Vec<_> = (0..50).map(|_| tools.session().unwrap()).collect();
    for session in &mut sessions {
        assert!(!session.call("read", &read_args("a.txt")).is_error);
    }
}

#[test]
fn a_bad_session_config_is_refused_when_building() {
    let (root, _) = root_and_outside("session-bad-config");
    let err = Tools::builder()
        .root(&root)
        .config_json(r#"{"max_lines": 0}"#)
        .unwrap()
        .build()
        .unwrap_err();
    assert!(
        format!("{err:#}").contains("max_lines must be at least 1"),
        "{err:#}"
    );
}

#[test]
fn the_component_imports_only_what_is_allowed() {
    let (root, _) = root_and_outside("session-imports");
    let imports = tools(&root).component_imports();
    assert!(
        imports
            .iter()
            .any(|i| i.starts_with("filetools:core/host-fs@"))
    );
    if let Err(problems) = filetools::imports::check(&imports) {
        panic!("{}", problems.join("\n"));
    }
}

#[test]
fn definitions_describe_every_tool_for_the_config() {
    let (root, _) = root_and_outside("session-definitions");
    let tools = Tools::builder()
        .root(&root)
        .cache_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/host-tests/cache"))
        .config_json(r#"{"max_lines": 700}"#)
        .unwrap()
        .build()
        .unwrap();
    let defs = tools.definitions().unwrap();
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        ["read", "write", "edit", "undo", "grep", "find", "replace"]
    );
    assert!(defs[0].description.contains("up to 700 lines"));
    for def in &defs {
        let schema: serde_json::Value = serde_json::from_str(&def.input_schema).unwrap();
        // The subject of each call: the file (one or several for read),
        // or the pattern of a search.
        let subject = if schema["properties"].get("file_path").is_some() {
            "file_path"
        } else {
            "pattern"
        };
        assert!(
            schema["properties"][subject]["description"]
                .as_str()
                .unwrap()
                .starts_with("Required"),
            "{}",
            def.name
        );
    }
    let strict = tools.schema(filetools::Format::OpenaiStrict).unwrap();
    assert_eq!(
        strict[2]["function"]["parameters"]["additionalProperties"],
        false
    );
}

#[test]
fn another_component_can_be_given_and_a_broken_one_is_refused() {
    let (root, _) = root_and_outside("session-component");
    let err = Tools::builder()
        .root(&root)
        .no_cache()
        .component(b"not a component".to_vec())
        .build()
        .unwrap_err();
    assert!(!format!("{err:#}").is_empty());
    let missing_root = Tools::builder().build().unwrap_err();
    assert!(
        format!("{missing_root:#}").contains("root directory"),
        "{missing_root:#}"
    );
}

#[test]
fn a_deadline_never_cuts_a_change_of_several_files_between_its_steps() {
    let (root, outside) = root_and_outside("deadline-patch");
    let report =
        filetools_tests::reliability::deadline::sweep(&root, &outside.join("state"), 24).unwrap();
    println!("{report}");
    assert_eq!(
        report.mixed + report.wrong_answers + report.left_to_settle,
        0,
        "{report}"
    );
    assert!(
        report.stopped > 0 && report.landed > 0,
        "the sweep missed a side: {report}"
    );
}

#[test]
fn a_file_name_that_is_not_utf8_is_listed_escaped_and_named_back() {
    use std::os::unix::ffi::OsStrExt as _;
    let (root, _) = root_and_outside("non-utf8-names");
    let raw = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(root.join(raw), "latin-1 name\n").unwrap();
    std::fs::write(root.join("café.txt"), "utf-8 name\n").unwrap();
    let mut session = tools(&root).session().unwrap();
    let listing = session.call("read", &read_args(".")).text();
    assert!(
        listing.contains("caf\\xe9.txt\t13 bytes\ncafé.txt\t11 bytes\n"),
        "{listing}"
    );
    let read = session.call("read", &read_args("caf\\xe9.txt"));
    assert_eq!(
        read.text(),
        "1\tlatin-1 name\n[lines 1-1 of 1; end of file]\n[version 3e57d27b2c713280-13]"
    );
    let edit = session.call(
        "edit",
        r#"{"file_path": "caf\\xe9.txt", "old_string": "latin-1", "new_string": "escaped"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
    assert_eq!(std::fs::read(root.join(raw)).unwrap(), b"escaped name\n");
}

#[test]
fn a_memory_limit_below_what_the_component_starts_with_says_the_least_that_works() {
    let dir = std::env::temp_dir().join(format!("filetools-small-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let refused = Tools::builder()
        .root(&dir)
        .memory_limit(1 << 20)
        .build()
        .and_then(|tools| tools.session().map(drop));
    let message = format!("{:#}", refused.unwrap_err());
    assert!(
        message.contains("the memory limit of 1.0 MiB is below the")
            && message.contains("give at least"),
        "{message}"
    );
    assert!(!message.contains("pages"), "{message}");
}

#[test]
fn a_save_after_an_edit_carries_that_edit_not_the_files_whole_history() {
    let (root, _) = root_and_outside("session-save-changes");
    std::fs::write(root.join("a.txt"), "0\n").unwrap();
    let tools = tools(&root);
    let mut session = tools.session().unwrap();
    session.call("read", &read_args("a.txt"));
    let mut log = session.save_log().unwrap();
    let mut lines = Vec::new();
    for n in 0..100 {
        let edit = serde_json::json!({"file_path": "a.txt", "old_string": format!("{n}\n"), "new_string": format!("{}\n", n + 1)});
        assert!(!session.call("edit", &edit.to_string()).is_error);
        let line = session.save_changes().unwrap().unwrap();
        lines.push(line.len());
        log.push_str(&line);
    }
    // The history is at its depth (32 entries) well before the end: a
    // save that carried the file's whole list would cost many times the
    // first ones.
    let (first, last) = (
        lines[..5].iter().max().unwrap(),
        lines[90..].iter().max().unwrap(),
    );
    println!("bytes per save: the first five at most {first}, the last ten at most {last}");
    assert!(*last < 2 * first, "{lines:?}");
    // The lines replay to the session's memory: undo goes on from there.
    let mut again = tools.session().unwrap();
    again.restore_log(&log).unwrap();
    let undone = again.call("undo", r#"{"file_path":"a.txt"}"#);
    assert!(!undone.is_error, "{}", undone.text());
    assert_eq!(std::fs::read_to_string(root.join("a.txt")).unwrap(), "99\n");
}

#[test]
fn a_sessions_memory_stays_flat_over_thousands_of_calls() {
    let (root, _) = root_and_outside("session-flat-memory");
    std::fs::create_dir_all(root.join("load")).unwrap();
    std::fs::write(root.join("load/s.txt"), "s head\ns 0\n").unwrap();
    let tools = Tools::builder()
        .root(&root)
        .config_json(r#"{"tools": ["filetools", "apply-patch"]}"#)
        .unwrap()
        .build()
        .unwrap();
    let mut session = tools.session().unwrap();
    session.call("read", &read_args("load/s.txt"));
    let mut lines = vec!["s head".to_owned(), "s 0".to_owned()];
    let mut sizes = Vec::new();
    for n in 1..=3000 {
        let last = lines.last().unwrap().clone();
        let (tool, args) = match n % 6 {
            0 | 1 => ("read", read_args("load/s.txt")),
            2 if lines.len() > 40 => {
                let gone = lines.remove(1);
                ("edit", serde_json::json!({"file_path": "load/s.txt", "old_string": format!("\n{gone}\n"), "new_string": "\n"}).to_string())
            }
            2 => {
                lines.push(format!("s {n}"));
                ("edit", serde_json::json!({"file_path": "load/s.txt", "old_string": format!("\n{last}\n"), "new_string": format!("\n{last}\ns {n}\n")}).to_string())
            }
            3 => {
                lines.push(format!("s {n}"));
                ("apply_patch", serde_json::json!({"input": format!("*** Begin Patch\n*** Update File: load/s.txt\n@@\n {last}\n+s {n}\n*** End Patch")}).to_string())
            }
            4 => (
                "grep",
                r#"{"pattern":"^s \\d+$","path":"load","output_mode":"count"}"#.to_owned(),
            ),
            _ => ("find", r#"{"pattern":"*.txt","path":"load"}"#.to_owned()),
        };
        let answer = session.call(tool, &args);
        assert!(!answer.is_error, "{tool} {args}: {}", answer.text());
        if n % 250 == 0 {
            sizes.push(session.memory_bytes());
        }
    }
    println!("instance memory every 250 calls: {sizes:?}");
    // What it grew by a quarter of the way is what it holds at the end.
    let (quarter, end) = (sizes[sizes.len() / 4], sizes[sizes.len() - 1]);
    assert!(end <= quarter + (64 << 10), "{sizes:?}");
}
