//! Maps the path a model sends onto the root-relative form `host-fs` takes
//! (SPEC §1, S1): relative paths are joined to the session's working
//! directory, absolute paths must lie under the configured root, `.` and `..`
//! are resolved lexically, and nothing may climb above the root. The host
//! therefore never sees `..`, and it checks symlinks itself.
//!
//! ```
//! use filetools_core::{Config, paths::path::resolve};
//! let config = Config { root: "/work/p".into(), cwd: "src".into(), ..Config::default() };
//! assert_eq!(resolve(&config, "lib.rs").unwrap(), "src/lib.rs");
//! assert_eq!(resolve(&config, "/work/p/README.md").unwrap(), "README.md");
//! assert!(resolve(&config, "../../etc/passwd").is_err());
//! ```

use crate::answers::error::ToolError;
use crate::answers::error::path::PathError;
use crate::config::Config;
use crate::config::MAX_PATH_BYTES;

/// [`resolve`] for a tool: a device or process file is refused by name
/// first (SPEC R9), and a path that cannot be mapped is the model-facing
/// error that says why.
pub(crate) fn resolve_arg(config: &Config, raw: &str) -> Result<String, ToolError> {
    let bad_path = |reason| ToolError::BadPath {
        path: raw.to_owned(),
        reason,
        root: config.root.clone(),
    };
    if raw.len() > MAX_PATH_BYTES {
        return Err(bad_path(PathError::TooLong));
    }
    if let Some(named) = crate::paths::danger::dangerous(config, raw) {
        return Err(ToolError::Dangerous {
            path: raw.to_owned(),
            named: named.named,
            kind: named.kind,
        });
    }
    resolve(config, raw).map_err(bad_path)
}

/// The root-relative, normalised form of `raw` (`.` for the root itself).
/// An absolute path is normalised first (`//`, `.` and `..` resolved
/// lexically), then taken relative to the root or any of its aliases.
pub fn resolve(config: &Config, raw: &str) -> Result<String, PathError> {
    if raw.trim().is_empty() {
        return Err(PathError::Empty);
    }
    if raw.len() > MAX_PATH_BYTES {
        return Err(PathError::TooLong);
    }
    if raw.contains('\0') {
        return Err(PathError::Nul);
    }
    if raw.starts_with('/') {
        let absolute = normalise_absolute(raw);
        let relative = roots(config)
            .find_map(|root| strip_root(root, &absolute))
            .ok_or(PathError::OutsideRoot)?;
        return Ok(if relative.is_empty() {
            ".".to_owned()
        } else {
            relative.to_owned()
        });
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in config.cwd.split('/').chain(raw.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop().ok_or(PathError::OutsideRoot)?;
            }
            name => parts.push(name),
        }
    }
    if parts.is_empty() {
        Ok(".".to_owned())
    } else {
        Ok(parts.join("/"))
    }
}

/// The absolute `path` with repeated slashes, `.` and `..` resolved
/// lexically (`..` at `/` stays at `/`): `//a/./b/../c` is `/a/c`.
pub fn normalise_absolute(path: &str) -> String {
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

/// Every spelling of the root the session accepts: the root, then its aliases.
fn roots(config: &Config) -> impl Iterator<Item = &str> {
    std::iter::once(config.root.as_str())
        .chain(config.root_aliases.iter().map(String::as_str))
        .filter(|root| !root.is_empty())
}

/// The normalised absolute `path` relative to `root` (empty for the root
/// itself), if it lies under it.
fn strip_root<'a>(root: &str, path: &'a str) -> Option<&'a str> {
    let root = normalise_absolute(root);
    if root == "/" {
        return Some(path.trim_start_matches('/'));
    }
    let rest = path.strip_prefix(root.as_str())?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(root: &str, cwd: &str) -> Config {
        Config {
            root: root.into(),
            cwd: cwd.into(),
            ..Config::default()
        }
    }

    #[test]
    fn relative_paths_join_the_working_directory() {
        let c = config("/r", "a/b");
        assert_eq!(resolve(&c, "c.txt").unwrap(), "a/b/c.txt");
        assert_eq!(resolve(&c, "./c.txt").unwrap(), "a/b/c.txt");
        assert_eq!(resolve(&c, "../c.txt").unwrap(), "a/c.txt");
        assert_eq!(resolve(&c, "../..").unwrap(), ".");
    }

    #[test]
    fn climbing_above_the_root_is_refused() {
        let c = config("/r", ".");
        assert_eq!(resolve(&c, "../x"), Err(PathError::OutsideRoot));
        assert_eq!(resolve(&c, "a/../../x"), Err(PathError::OutsideRoot));
    }

    #[test]
    fn absolute_paths_must_lie_under_the_root() {
        let c = config("/work/p/", ".");
        assert_eq!(resolve(&c, "/work/p").unwrap(), ".");
        assert_eq!(resolve(&c, "/work/p/x/y").unwrap(), "x/y");
        assert_eq!(resolve(&c, "/work/p-evil/x"), Err(PathError::OutsideRoot));
        assert_eq!(resolve(&c, "/etc/passwd"), Err(PathError::OutsideRoot));
        assert_eq!(resolve(&c, "/work/p/../q"), Err(PathError::OutsideRoot));
    }

    #[test]
    fn absolute_paths_are_normalised_before_the_root_is_matched() {
        let c = config("/b/project/src", ".");
        assert_eq!(resolve(&c, "/b/./project/src/x.rs").unwrap(), "x.rs");
        assert_eq!(resolve(&c, "/b//project//src/x.rs").unwrap(), "x.rs");
        assert_eq!(resolve(&c, "/b/project//src//").unwrap(), ".");
        assert_eq!(resolve(&c, "/b/project/src/a/../x.rs").unwrap(), "x.rs");
        assert_eq!(
            resolve(&c, "/b/project/src/../src-evil/x"),
            Err(PathError::OutsideRoot)
        );
    }

    #[test]
    fn every_spelling_of_the_root_is_accepted() {
        let mut c = config("/private/tmp/p", ".");
        c.root_aliases = vec!["/tmp/p".into(), "/home/me/link".into()];
        assert_eq!(resolve(&c, "/tmp/p/a.txt").unwrap(), "a.txt");
        assert_eq!(resolve(&c, "/private/tmp/p/a.txt").unwrap(), "a.txt");
        assert_eq!(resolve(&c, "/home/me/link").unwrap(), ".");
        assert_eq!(resolve(&c, "/tmp/q/a.txt"), Err(PathError::OutsideRoot));
    }

    #[test]
    fn the_file_system_root_holds_every_absolute_path() {
        let c = config("/", ".");
        assert_eq!(resolve(&c, "/").unwrap(), ".");
        assert_eq!(resolve(&c, "/etc/hosts").unwrap(), "etc/hosts");
        assert_eq!(resolve(&c, "//etc/../etc/hosts").unwrap(), "etc/hosts");
        assert_eq!(resolve(&c, "/..").unwrap(), ".");
    }

    #[test]
    fn without_a_root_absolute_paths_are_refused() {
        assert_eq!(resolve(&config("", "."), "/x"), Err(PathError::OutsideRoot));
    }

    #[test]
    fn empty_and_nul_are_refused() {
        let c = config("/r", ".");
        assert_eq!(resolve(&c, "  "), Err(PathError::Empty));
        assert_eq!(resolve(&c, "a\0b"), Err(PathError::Nul));
    }
}
