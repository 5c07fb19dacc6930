//! Paths refused by name, before any I/O (SPEC R9): devices and process
//! files whose reads never end or block — `/dev/zero`, `/dev/urandom`,
//! `/dev/stdin`, `/dev/tty`, `/dev/fd/*`, `/proc/*/fd/*`, … — however they are
//! spelled (`/dev/../dev/zero`, `//dev/zero`, a relative path that lands there
//! from the workspace root). Kinds are refused again after `stat`, which never
//! opens the file; this check needs no host at all.
//!
//! ```
//! use filetools_core::{Config, danger::dangerous};
//! let config = Config::default();
//! assert_eq!(dangerous(&config, "/dev/../dev/./zero").as_deref(), Some("/dev/zero"));
//! assert_eq!(dangerous(&config, "/proc/1234/fd/0").as_deref(), Some("/proc/1234/fd/0"));
//! assert_eq!(dangerous(&config, "src/dev/zero"), None);
//! ```

use crate::config::Config;

/// Device files that never end or block when read.
const DEVICES: &[&str] = &[
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/full",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/console",
    "/dev/ptmx",
    "/dev/kmsg",
    "/dev/mem",
    "/dev/kmem",
    "/dev/port",
    "/proc/kcore",
    "/proc/kmsg",
];

/// Directories whose every entry is a descriptor or a terminal.
const DESCRIPTOR_DIRS: &[&str] = &["/dev/fd", "/dev/pts"];

/// `path` with `.`, `..` and repeated slashes resolved, as an absolute path.
fn normalise(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Whether the absolute, normalised `path` is a device or a process file.
fn is_dangerous(path: &str) -> bool {
    if DEVICES.contains(&path) {
        return true;
    }
    if DESCRIPTOR_DIRS.iter().any(|dir| {
        path.strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
    }) {
        return true;
    }
    // /proc/<pid|self|thread-self>/[task/<tid>/]{fd/*, fdinfo/*, mem}
    let parts: Vec<&str> = path.split('/').skip(1).collect();
    let process = |name: &str| {
        name == "self"
            || name == "thread-self"
            || (!name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()))
    };
    let tail = match parts.as_slice() {
        ["proc", pid, "task", tid, rest @ ..] if process(pid) && process(tid) => rest,
        ["proc", pid, rest @ ..] if process(pid) => rest,
        _ => return false,
    };
    matches!(tail, ["fd", ..] | ["mem"])
}

/// The dangerous absolute path that `raw` names, if it names one: as given
/// when absolute, or under the configured root when relative.
pub fn dangerous(config: &Config, raw: &str) -> Option<String> {
    let raw = raw.trim();
    let absolute = if raw.starts_with('/') {
        normalise(raw)
    } else if !config.root.is_empty() {
        normalise(&format!("{}/{}/{raw}", config.root, config.cwd))
    } else {
        return None;
    };
    is_dangerous(&absolute).then_some(absolute)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_of_devices_are_caught() {
        let config = Config::default();
        for path in [
            "/dev/zero",
            "//dev//urandom",
            "/dev/./random",
            "/tmp/../dev/stdin",
            "/dev/fd/0",
            "/proc/self/fd/1",
            "/proc/42/task/43/fd/2",
            "/proc/self/mem",
            " /dev/tty ",
        ] {
            assert!(dangerous(&config, path).is_some(), "{path}");
        }
    }

    #[test]
    fn ordinary_paths_pass() {
        let config = Config::default();
        for path in [
            "/dev",
            "/proc/cpuinfo",
            "/proc/self/status",
            "dev/zero",
            "/work/dev/zero",
            "/devices/zero",
        ] {
            assert_eq!(dangerous(&config, path), None, "{path}");
        }
    }

    #[test]
    fn relative_paths_count_from_the_root() {
        let config = Config {
            root: "/".into(),
            cwd: "dev".into(),
            ..Config::default()
        };
        assert_eq!(dangerous(&config, "zero").as_deref(), Some("/dev/zero"));
        assert_eq!(
            dangerous(&config, "../proc/self/fd/0").as_deref(),
            Some("/proc/self/fd/0")
        );
    }
}
