//! S1: nothing outside the root is reachable, whatever the path or link; R9:
//! special files are refused without blocking; W4: writes are atomic and
//! checked.

use std::os::unix::fs::{PermissionsExt as _, symlink};
use std::time::{Duration, Instant};

use filetools::{HostFs as _, Sandbox};
use filetools_core::{FileKind as Kind, FileStamp as Stamp, FsError, Precondition};

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
    assert_eq!(result.text(), "1\treal\n[lines 1-1 of 1; end of file]");
}

#[test]
fn absolute_paths_inside_the_root_work() {
    let (root, _) = root_and_outside("sandbox-absolute");
    std::fs::write(root.join("a.txt"), "x\n").unwrap();
    let tools = tools(&root);
    let abs = tools.root().join("a.txt").to_string_lossy().into_owned();
    let result = tools.session().unwrap().call("read", &read_args(&abs));
    assert_eq!(result.text(), "1\tx\n[lines 1-1 of 1; end of file]");
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
    };
    assert_eq!(
        sandbox.write_file("new/dir/f.txt", b"two", &Precondition::Matches(wrong_hash)),
        Err(FsError::Conflict)
    );
    let exact = Stamp {
        size: seen.size,
        mtime_ns: seen.mtime_ns,
        sha256: None,
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
