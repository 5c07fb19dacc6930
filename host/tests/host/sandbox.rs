//! S1: nothing outside the root is reachable, whatever the path or link, and
//! everything inside it is, under every spelling; R9: special files are
//! refused without blocking, never replaced; W4: writes are atomic and
//! checked on what they displace, leave no temporary files behind, and
//! keep the mode.

use std::os::unix::fs::{PermissionsExt as _, symlink};
use std::path::Path;
use std::time::{Duration, Instant};

use filetools::{HostFs as _, Sandbox};
use filetools_core::{FileKind as Kind, FileStamp as Stamp, FsError, Precondition};
use filetools_tests::reliability::Special;

use crate::{read_args, root_and_outside, tools};

#[test]
fn traversal_and_absolute_paths_are_refused_by_the_sandbox_itself() {
    let (root, outside) = root_and_outside("sandbox-traversal");
    let sandbox = Sandbox::open(&root, false).unwrap();
    for path in [
        "../outside/secret.txt",
        "/etc/passwd",
        "a/../../outside/secret.txt",
        "",
        "a\0b",
    ] {
        assert_eq!(sandbox.stat(path), Err(FsError::OutsideSandbox), "{path:?}");
        assert_eq!(
            sandbox.read(path, 0, 10),
            Err(FsError::OutsideSandbox),
            "{path:?}"
        );
    }
    let abs = outside.join("secret.txt").to_string_lossy().into_owned();
    assert_eq!(sandbox.stat(&abs), Err(FsError::OutsideSandbox));
}

#[test]
fn symlinks_leading_outside_are_refused_for_files_and_directories() {
    let (root, outside) = root_and_outside("sandbox-symlinks");
    symlink(outside.join("secret.txt"), root.join("file-link")).unwrap();
    symlink(&outside, root.join("dir-link")).unwrap();
    symlink("../outside/secret.txt", root.join("relative-link")).unwrap();
    let sandbox = Sandbox::open(&root, false).unwrap();
    for path in ["file-link", "dir-link/secret.txt", "relative-link"] {
        assert_eq!(
            sandbox.read(path, 0, 100),
            Err(FsError::OutsideSandbox),
            "{path}"
        );
    }
    let mut session = tools(&root).session().unwrap();
    for path in ["file-link", "dir-link/secret.txt", "relative-link"] {
        let result = session.call("read", &read_args(path));
        assert!(result.is_error, "{path}");
        assert!(
            !result.text().contains("secret\n"),
            "{path}: {}",
            result.text()
        );
        assert!(
            result.text().contains("outside the workspace"),
            "{}",
            result.text()
        );
    }
}

#[test]
fn symlinks_inside_the_root_are_followed() {
    let (root, _) = root_and_outside("sandbox-inner-link");
    std::fs::write(root.join("real.txt"), "real\n").unwrap();
    symlink("real.txt", root.join("alias.txt")).unwrap();
    let mut session = tools(&root).session().unwrap();
    let result = session.call("read", &read_args("alias.txt"));
    assert_eq!(
        result.text(),
        "1\treal\n[lines 1-1 of 1; end of file]\n[version ef71d4cdd8c67d04-5]"
    );
}

#[test]
fn absolute_paths_inside_the_root_work() {
    let (root, _) = root_and_outside("sandbox-absolute");
    std::fs::write(root.join("a.txt"), "x\n").unwrap();
    let tools = tools(&root);
    let abs = tools
        .root()
        .unwrap()
        .join("a.txt")
        .to_string_lossy()
        .into_owned();
    let result = tools.session().unwrap().call("read", &read_args(&abs));
    assert_eq!(
        result.text(),
        "1\tx\n[lines 1-1 of 1; end of file]\n[version 5c86dd76b239dbde-2]"
    );
}

#[test]
fn a_fifo_is_refused_at_once_not_opened() {
    let (root, _) = root_and_outside("sandbox-fifo");
    let fifo = root.join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let sandbox = Sandbox::open(&root, false).unwrap();
    assert_eq!(sandbox.stat("pipe").unwrap().kind, Kind::Fifo);
    let mut session = tools(&root).session().unwrap();
    let started = Instant::now();
    assert!(sandbox.read("pipe", 0, 10).is_err());
    let result = session.call("read", &read_args("pipe"));
    assert!(result.is_error);
    assert!(result.text().contains("FIFO"), "{}", result.text());
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn writes_are_atomic_checked_and_keep_permissions() {
    let (root, _) = root_and_outside("sandbox-write");
    let sandbox = Sandbox::open(&root, false).unwrap();
    let created = sandbox
        .write_file("new/dir/f.txt", b"one", &Precondition::Absent)
        .unwrap();
    assert_eq!(created.size, 3);
    assert_eq!(
        sandbox.write_file("new/dir/f.txt", b"x", &Precondition::Absent),
        Err(FsError::Conflict)
    );
    std::fs::set_permissions(
        root.join("new/dir/f.txt"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    let seen = sandbox.stat("new/dir/f.txt").unwrap();
    let stale = Stamp {
        size: seen.size,
        mtime_ns: seen.mtime_ns + 1,
        sha256: None,
        xxh3: None,
    };
    assert_eq!(
        sandbox.write_file("new/dir/f.txt", b"two", &Precondition::Matches(stale)),
        Err(FsError::Conflict)
    );
    assert_eq!(std::fs::read(root.join("new/dir/f.txt")).unwrap(), b"one");
    // Same size, content decides: a different hash is a conflict.
    let wrong_hash = Stamp {
        size: 3,
        mtime_ns: 0,
        sha256: Some("0".repeat(64)),
        xxh3: None,
    };
    assert_eq!(
        sandbox.write_file("new/dir/f.txt", b"two", &Precondition::Matches(wrong_hash)),
        Err(FsError::Conflict)
    );
    // An XXH3-128 decides before the SHA-256: a wrong one is a conflict
    // even beside the right SHA-256.
    let by_xxh3 = |xxh3: String| Stamp {
        size: 3,
        mtime_ns: 0,
        sha256: Some(filetools_core::sha256_hex(b"one")),
        xxh3: Some(xxh3),
    };
    assert_eq!(
        sandbox.write_file(
            "new/dir/f.txt",
            b"two",
            &Precondition::Matches(by_xxh3(filetools_core::xxh3_hex(b"two")))
        ),
        Err(FsError::Conflict)
    );
    assert_eq!(std::fs::read(root.join("new/dir/f.txt")).unwrap(), b"one");
    let exact = Stamp {
        size: seen.size,
        mtime_ns: seen.mtime_ns,
        sha256: None,
        xxh3: None,
    };
    sandbox
        .write_file("new/dir/f.txt", b"two", &Precondition::Matches(exact))
        .unwrap();
    assert_eq!(std::fs::read(root.join("new/dir/f.txt")).unwrap(), b"two");
    let mode = std::fs::metadata(root.join("new/dir/f.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
    // The right XXH3-128 lets a write in beside a SHA-256 that is not.
    sandbox
        .write_file(
            "new/dir/f.txt",
            b"TWO",
            &Precondition::Matches(by_xxh3(filetools_core::xxh3_hex(b"two"))),
        )
        .unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(root.join("new/dir")).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary files remain");
}

#[test]
fn writes_never_leave_the_root_or_follow_a_link_out() {
    let (root, outside) = root_and_outside("sandbox-write-escape");
    symlink(outside.join("secret.txt"), root.join("link.txt")).unwrap();
    symlink(&outside, root.join("out")).unwrap();
    let sandbox = Sandbox::open(&root, false).unwrap();
    assert_eq!(
        sandbox.write_file("link.txt", b"pwned", &Precondition::Any),
        Err(FsError::OutsideSandbox)
    );
    assert!(
        sandbox
            .write_file("out/new.txt", b"pwned", &Precondition::Any)
            .is_err()
    );
    assert!(
        sandbox
            .write_file("../outside/new.txt", b"pwned", &Precondition::Any)
            .is_err()
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("secret.txt")).unwrap(),
        "secret\n"
    );
    assert!(!outside.join("new.txt").exists());
}

#[test]
fn read_only_refuses_every_write() {
    let (root, _) = root_and_outside("sandbox-read-only");
    let sandbox = Sandbox::open(&root, true).unwrap();
    assert_eq!(
        sandbox.write_file("a.txt", b"x", &Precondition::Any),
        Err(FsError::ReadOnly)
    );
    assert!(!root.join("a.txt").exists());
}

#[test]
fn listings_are_sorted_and_do_not_follow_links() {
    let (root, outside) = root_and_outside("sandbox-list");
    std::fs::write(root.join("b.txt"), "bb").unwrap();
    std::fs::create_dir(root.join("a")).unwrap();
    symlink(&outside, root.join("c")).unwrap();
    let sandbox = Sandbox::open(&root, false).unwrap();
    let entries = sandbox.list_dir(".").unwrap();
    let summary: Vec<_> = entries
        .iter()
        .map(|e| (e.name.as_str(), e.kind, e.size))
        .collect();
    assert_eq!(
        summary,
        [
            ("a", Kind::Directory, 0),
            ("b.txt", Kind::File, 2),
            ("c", Kind::Symlink, 0)
        ]
    );
    assert_eq!(sandbox.list_dir("c"), Err(FsError::OutsideSandbox));
}

/// The stamp of `path` in `sandbox` as a session that read it would send.
fn seen(sandbox: &Sandbox, path: &str, content: &[u8]) -> Precondition {
    let meta = sandbox.stat(path).unwrap();
    Precondition::Matches(Stamp {
        size: meta.size,
        mtime_ns: meta.mtime_ns,
        sha256: Some(filetools_core::sha256_hex(content)),
        xxh3: None,
    })
}

#[test]
fn an_absolute_symlink_inside_the_root_is_followed_and_written_through() {
    let (root, _) = root_and_outside("sandbox-absolute-link");
    let root = root.canonicalize().unwrap();
    std::fs::write(root.join("target.txt"), "target\n").unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    symlink(root.join("target.txt"), root.join("sub/abs-link")).unwrap();
    let mut session = tools(&root).session().unwrap();
    let read = session.call("read", &read_args("sub/abs-link"));
    assert_eq!(
        read.text(),
        "1\ttarget\n[lines 1-1 of 1; end of file]\n[version b64b181c95e46951-7]"
    );
    let edit = session.call(
        "edit",
        r#"{"file_path": "sub/abs-link", "old_string": "target", "new_string": "changed"}"#,
    );
    assert!(!edit.is_error, "{}", edit.text());
    assert_eq!(
        std::fs::read(root.join("target.txt")).unwrap(),
        b"changed\n"
    );
    assert!(
        std::fs::symlink_metadata(root.join("sub/abs-link"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is kept"
    );
}

#[test]
fn a_root_given_through_a_symlink_answers_to_both_spellings() {
    let (root, _) = root_and_outside("sandbox-root-link");
    std::fs::write(root.join("file.txt"), "file\n").unwrap();
    let link = root.parent().unwrap().join("link");
    symlink(&root, &link).unwrap();
    let tools = tools(&link);
    let mut session = tools.session().unwrap();
    for path in [
        link.join("file.txt"),
        root.canonicalize().unwrap().join("file.txt"),
    ] {
        let result = session.call("read", &read_args(&path.to_string_lossy()));
        assert_eq!(
            result.text(),
            "1\tfile\n[lines 1-1 of 1; end of file]\n[version 943273317f4e465c-5]",
            "{}",
            path.display()
        );
    }
    // An absolute link spelled through the root's other name stays inside.
    symlink(link.join("file.txt"), root.join("via-link")).unwrap();
    let result = session.call("read", &read_args("via-link"));
    assert_eq!(
        result.text(),
        "1\tfile\n[lines 1-1 of 1; end of file]\n[version 943273317f4e465c-5]"
    );
}

#[test]
fn kernel_files_are_refused_on_the_opened_file_unless_allowed() {
    let (root, _) = root_and_outside("sandbox-kernel");
    let root = root.canonicalize().unwrap();
    symlink("/proc/self/status", root.join("status-link")).unwrap();
    let whole = Sandbox::open(Path::new("/"), false).unwrap();
    let rel = root.join("status-link").to_string_lossy()[1..].to_owned();
    assert_eq!(whole.read(&rel, 0, 100), Err(FsError::PermissionDenied));
    assert_eq!(
        whole.read("proc/self/status", 0, 100),
        Err(FsError::PermissionDenied)
    );
    assert_eq!(whole.list_dir("proc"), Err(FsError::PermissionDenied));
    let allowed = Sandbox::open(Path::new("/"), false)
        .unwrap()
        .kernel_files(true);
    assert!(allowed.read(&rel, 0, 100).unwrap().starts_with(b"Name:"));
}

#[test]
fn a_fifo_or_device_swapped_in_is_neither_read_nor_replaced() {
    let (root, _) = root_and_outside("sandbox-swapped");
    let sandbox = Sandbox::open(&root, false).unwrap();
    let mut kinds = vec![Special::Fifo];
    if Special::devices_allowed(&root) {
        kinds.push(Special::Zero);
    }
    for exchange in [true, false] {
        let sandbox = Sandbox::open(&root, false).unwrap().exchange(exchange);
        for &kind in &kinds {
            std::fs::write(root.join("f.txt"), "").unwrap();
            let precondition = seen(&sandbox, "f.txt", b"");
            std::fs::remove_file(root.join("f.txt")).unwrap();
            kind.make(&root.join("f.txt")).unwrap();
            let started = Instant::now();
            assert_eq!(
                sandbox.write_file("f.txt", b"x", &precondition),
                Err(FsError::Conflict),
                "{kind}"
            );
            assert_eq!(
                sandbox.remove_file("f.txt", &precondition),
                Err(FsError::Conflict),
                "{kind}"
            );
            assert!(started.elapsed() < Duration::from_secs(2), "{kind}");
            assert!(kind.is_at(&root.join("f.txt")), "{kind} was replaced");
            std::fs::remove_file(root.join("f.txt")).unwrap();
        }
    }
    drop(sandbox);
}

#[test]
fn a_change_landing_before_the_write_is_a_conflict_in_both_replace_modes() {
    let (root, _) = root_and_outside("sandbox-modes");
    for exchange in [true, false] {
        let sandbox = Sandbox::open(&root, false).unwrap().exchange(exchange);
        std::fs::write(root.join("f.txt"), "aaa\n").unwrap();
        let precondition = seen(&sandbox, "f.txt", b"aaa\n");
        std::fs::write(root.join("f.txt"), "bbb\n").unwrap();
        assert_eq!(
            sandbox.write_file("f.txt", b"ours\n", &precondition),
            Err(FsError::Conflict)
        );
        assert_eq!(
            sandbox.remove_file("f.txt", &precondition),
            Err(FsError::Conflict)
        );
        assert_eq!(std::fs::read(root.join("f.txt")).unwrap(), b"bbb\n");
        let now = seen(&sandbox, "f.txt", b"bbb\n");
        sandbox.write_file("f.txt", b"ours\n", &now).unwrap();
        assert_eq!(std::fs::read(root.join("f.txt")).unwrap(), b"ours\n");
        sandbox
            .remove_file("f.txt", &seen(&sandbox, "f.txt", b"ours\n"))
            .unwrap();
        assert!(!root.join("f.txt").exists());
        assert_eq!(
            sandbox.remove_file("f.txt", &Precondition::Any),
            Err(FsError::NotFound)
        );
        let names: Vec<_> = std::fs::read_dir(&root).unwrap().collect();
        assert!(names.is_empty(), "nothing left: {names:?}");
    }
}

#[test]
fn temporary_files_of_killed_writers_are_removed_by_the_next_write_there() {
    let (root, _) = root_and_outside("sandbox-debris");
    std::fs::create_dir(root.join("d")).unwrap();
    // Process ids stay below 2^22 on Linux: these writers are gone. The
    // second name is an earlier version's.
    let gone = [
        ".a.txt.filetools-4194999-0badc0de-3.tmp",
        ".b.rs.filetools-4194999-7.tmp",
    ];
    let live = format!(
        ".c.txt.filetools-{}-0badc0de-0.tmp",
        std::os::unix::process::parent_id()
    );
    for name in gone.iter().copied().chain([live.as_str(), ".not-ours.tmp"]) {
        std::fs::write(root.join("d").join(name), "debris").unwrap();
    }
    let sandbox = Sandbox::open(&root, false).unwrap();
    sandbox
        .write_file("d/new.txt", b"new\n", &Precondition::Absent)
        .unwrap();
    let mut left: Vec<String> = std::fs::read_dir(root.join("d"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut expected = vec![live, ".not-ours.tmp".to_owned(), "new.txt".to_owned()];
    expected.sort();
    assert_eq!(left, expected);
}

#[test]
fn replacing_keeps_the_mode_and_long_names_work() {
    let (root, _) = root_and_outside("sandbox-mode-names");
    let sandbox = Sandbox::open(&root, false).unwrap();
    let long = "n".repeat(250);
    sandbox
        .write_file(&long, b"one\n", &Precondition::Absent)
        .unwrap();
    std::fs::set_permissions(root.join(&long), std::fs::Permissions::from_mode(0o600)).unwrap();
    sandbox
        .write_file(&long, b"two\n", &seen(&sandbox, &long, b"one\n"))
        .unwrap();
    let meta = std::fs::metadata(root.join(&long)).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::read(root.join(&long)).unwrap(), b"two\n");
    assert_eq!(std::fs::read_dir(&root).unwrap().count(), 1);
}

#[test]
fn renames_check_what_moves_never_replace_and_stay_inside() {
    let (root, outside) = root_and_outside("sandbox-rename");
    symlink(&outside, root.join("out")).unwrap();
    for exchange in [true, false] {
        let sandbox = Sandbox::open(&root, false).unwrap().exchange(exchange);
        std::fs::write(root.join("a.txt"), "aaa\n").unwrap();
        std::fs::write(root.join("taken.txt"), "mine\n").unwrap();
        let precondition = seen(&sandbox, "a.txt", b"aaa\n");
        assert_eq!(
            sandbox.rename("a.txt", "taken.txt", &precondition),
            Err(FsError::Conflict)
        );
        assert_eq!(std::fs::read(root.join("taken.txt")).unwrap(), b"mine\n");
        assert!(sandbox.rename("a.txt", "out/a.txt", &precondition).is_err());
        assert!(
            sandbox
                .rename("a.txt", "../outside/a.txt", &precondition)
                .is_err()
        );
        assert!(!outside.join("a.txt").exists());
        // Changed since it was seen: nothing moves.
        std::fs::write(root.join("a.txt"), "bbb\n").unwrap();
        assert_eq!(
            sandbox.rename("a.txt", "moved/a.txt", &precondition),
            Err(FsError::Conflict)
        );
        assert_eq!(std::fs::read(root.join("a.txt")).unwrap(), b"bbb\n");
        assert!(!root.join("moved/a.txt").exists());
        let now = seen(&sandbox, "a.txt", b"bbb\n");
        let meta = sandbox.rename("a.txt", "moved/a.txt", &now).unwrap();
        assert_eq!((meta.kind, meta.size), (Kind::File, 4));
        assert!(!root.join("a.txt").exists());
        // A directory moves only unconditionally.
        assert_eq!(
            sandbox.rename("moved", "again", &now),
            Err(FsError::Conflict)
        );
        sandbox
            .rename("moved", "again", &Precondition::Any)
            .unwrap();
        assert_eq!(std::fs::read(root.join("again/a.txt")).unwrap(), b"bbb\n");
        assert_eq!(
            sandbox.rename("gone.txt", "x.txt", &Precondition::Any),
            Err(FsError::NotFound)
        );
        std::fs::remove_dir_all(root.join("again")).unwrap();
        std::fs::remove_file(root.join("taken.txt")).unwrap();
    }
}

#[test]
fn directories_are_made_with_their_parents_only_inside() {
    let (root, outside) = root_and_outside("sandbox-mkdir");
    symlink(&outside, root.join("out")).unwrap();
    std::fs::write(root.join("file"), "x").unwrap();
    let sandbox = Sandbox::open(&root, false).unwrap();
    sandbox.create_dir("a/b/c").unwrap();
    sandbox.create_dir("a/b/c").unwrap();
    assert!(root.join("a/b/c").is_dir());
    assert_eq!(sandbox.create_dir("file"), Err(FsError::NotADirectory));
    assert!(sandbox.create_dir("file/sub").is_err());
    assert!(sandbox.create_dir("out/made").is_err());
    assert!(sandbox.create_dir("../outside/made").is_err());
    assert!(!outside.join("made").exists());
    let read_only = Sandbox::open(&root, true).unwrap();
    assert_eq!(read_only.create_dir("d"), Err(FsError::ReadOnly));
    assert_eq!(
        read_only.rename("file", "moved", &Precondition::Any),
        Err(FsError::ReadOnly)
    );
}

#[test]
fn a_patch_or_move_through_a_link_out_of_the_root_changes_nothing_anywhere() {
    let (root, outside) = root_and_outside("sandbox-patch-escape");
    symlink(&outside, root.join("out")).unwrap();
    std::fs::write(root.join("a.txt"), "alpha\n").unwrap();
    let tools = filetools::Tools::builder()
        .root(&root)
        .cache_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/host-tests/cache"))
        .config_json(r#"{"tools": ["apply-patch", "mcp-filesystem"]}"#)
        .unwrap()
        .build()
        .unwrap();
    let mut session = tools.session().unwrap();
    for patch in [
        "*** Begin Patch\n*** Update File: a.txt\n-alpha\n+ALPHA\n*** Add File: out/new.txt\n+pwned\n*** End Patch",
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: out/a.txt\n-alpha\n+ALPHA\n*** End Patch",
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: ../outside/a.txt\n-alpha\n+ALPHA\n*** End Patch",
        "*** Begin Patch\n*** Delete File: out/secret.txt\n*** End Patch",
    ] {
        let input = serde_json::json!({ "input": patch }).to_string();
        let result = session.call("apply_patch", &input);
        assert!(result.is_error, "{patch}: {}", result.text());
    }
    for (source, destination) in [("a.txt", "out/a.txt"), ("out/secret.txt", "stolen.txt")] {
        let args = serde_json::json!({ "source": source, "destination": destination }).to_string();
        let result = session.call("move_file", &args);
        assert!(result.is_error, "{source}: {}", result.text());
    }
    let made = session.call("create_directory", r#"{"path": "out/made"}"#);
    assert!(made.is_error, "{}", made.text());
    assert_eq!(std::fs::read(root.join("a.txt")).unwrap(), b"alpha\n");
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        1,
        "only secret.txt stays outside"
    );
    assert!(!root.join("stolen.txt").exists());
}

#[test]
fn stat_reports_permission_bits_and_created_and_accessed_times() {
    let (root, _) = root_and_outside("sandbox-stat-times");
    std::fs::write(root.join("a.txt"), "a\n").unwrap();
    std::fs::set_permissions(root.join("a.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let sandbox = Sandbox::open(&root, false).unwrap();
    let meta = sandbox.stat("a.txt").unwrap();
    assert_eq!(meta.mode, 0o640);
    assert!(meta.created_ns > 0 && meta.accessed_ns > 0);
    assert_eq!(sandbox.stat(".").unwrap().kind, Kind::Directory);
    // A write reports the same bits as a stat of what it wrote.
    let written = sandbox
        .write_file("a.txt", b"b\n", &Precondition::Any)
        .unwrap();
    assert_eq!(written.mode, 0o640);
    assert!(written.accessed_ns > 0);
}
