//! Paths refused by name, before any I/O (SPEC R9, S1): devices and process
//! files whose reads never end or block — `/dev/zero`, `/dev/urandom`,
//! `/dev/stdin`, `/dev/tty`, `/dev/fd/*`, `/proc/*/fd/*`, … — and, unless the
//! host sets `kernel_files`, everything under `/proc` and `/sys`, whose sizes
//! are not their content and which describe the host rather than the
//! workspace. However they are spelled (`/dev/../dev/zero`, `//dev/zero`, a
//! relative path that lands there from the workspace root). Kinds are refused
//! again after `stat`, which never opens the file, and a host refuses kernel
//! file systems again on the opened file; this check needs no host at all.
//!
//! ```
//! use filetools_core::Config;
//! use filetools_core::answers::error::path::Danger;
//! use filetools_core::paths::danger::dangerous;
//! let config = Config::default();
//! let zero = dangerous(&config, "/dev/../dev/./zero").unwrap();
//! assert_eq!((zero.named.as_str(), zero.kind), ("/dev/zero", Danger::Device));
//! assert_eq!(dangerous(&config, "/proc/self/maps").unwrap().kind, Danger::Kernel);
//! assert_eq!(dangerous(&config, "src/dev/zero"), None);
//! ```

use crate::answers::error::path::Danger;
use crate::config::Config;
use crate::paths::path::normalise_absolute;

/// A path refused by name: the absolute path it names, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The absolute, normalised path.
    pub named: String,
    /// Why it is refused.
    pub kind: Danger,
}

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

/// Trees of kernel files, refused unless the host sets `kernel_files`.
const KERNEL_TREES: &[&str] = &["/proc", "/sys"];

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

/// Whether the absolute, normalised `path` is `/proc`, `/sys` or under them.
fn is_kernel(path: &str) -> bool {
    KERNEL_TREES.iter().any(|tree| {
        path.strip_prefix(tree)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// The refused absolute path that `raw` names, if it names one: as given
/// when absolute, or under the configured root when relative.
pub fn dangerous(config: &Config, raw: &str) -> Option<Named> {
    let raw = raw.trim();
    let named = if raw.starts_with('/') {
        normalise_absolute(raw)
    } else if !config.root.is_empty() {
        normalise_absolute(&format!("{}/{}/{raw}", config.root, config.cwd))
    } else {
        return None;
    };
    let kind = if is_dangerous(&named) {
        Danger::Device
    } else if is_kernel(&named) && !config.kernel_files {
        Danger::Kernel
    } else {
        return None;
    };
    Some(Named { named, kind })
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
            "dev/zero",
            "/work/dev/zero",
            "/devices/zero",
            "/process/x",
            "/system",
        ] {
            assert_eq!(dangerous(&config, path), None, "{path}");
        }
    }

    #[test]
    fn kernel_trees_are_refused_unless_the_host_allows_them() {
        let mut config = Config::default();
        for path in [
            "/proc",
            "/proc/cpuinfo",
            "/proc/self/maps",
            "//sys/kernel/../class",
        ] {
            let named = dangerous(&config, path).unwrap();
            assert_eq!(named.kind, Danger::Kernel, "{path}");
        }
        config.kernel_files = true;
        assert_eq!(dangerous(&config, "/proc/self/maps"), None);
        assert_eq!(
            dangerous(&config, "/proc/self/fd/0").map(|n| n.kind),
            Some(Danger::Device)
        );
    }

    #[test]
    fn relative_paths_count_from_the_root() {
        let config = Config {
            root: "/".into(),
            cwd: "dev".into(),
            ..Config::default()
        };
        let named = |raw| dangerous(&config, raw).map(|n| n.named);
        assert_eq!(named("zero").as_deref(), Some("/dev/zero"));
        assert_eq!(
            named("../proc/self/fd/0").as_deref(),
            Some("/proc/self/fd/0")
        );
        assert_eq!(named("../sys/class").as_deref(), Some("/sys/class"));
    }
}
