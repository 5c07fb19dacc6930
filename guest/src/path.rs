//! Maps the path a model sends onto the root-relative form `host-fs` takes
//! (SPEC §1, S1): relative paths are joined to the session's working
//! directory, absolute paths must lie under the configured root, `.` and `..`
//! are resolved lexically, and nothing may climb above the root. The host
//! therefore never sees `..`, and it checks symlinks itself.
//!
//! ```
//! use filetools_core::{Config, path::resolve};
//! let config = Config { root: "/work/p".into(), cwd: "src".into(), ..Config::default() };
//! assert_eq!(resolve(&config, "lib.rs").unwrap(), "src/lib.rs");
//! assert_eq!(resolve(&config, "/work/p/README.md").unwrap(), "README.md");
//! assert!(resolve(&config, "../../etc/passwd").is_err());
//! ```

use crate::config::Config;
use crate::error::ToolError;

/// Why a path cannot be mapped into the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// The path is empty or only whitespace.
    Empty,
    /// The path contains a NUL byte.
    Nul,
    /// The path is absolute outside the root, or `..` climbs above it.
    OutsideRoot,
}

/// [`resolve`] for a tool: a device or process file is refused by name
/// first (SPEC R9), and a path that cannot be mapped is the model-facing
/// error that says why.
pub(crate) fn resolve_arg(config: &Config, raw: &str) -> Result<String, ToolError> {
    if let Some(named) = crate::danger::dangerous(config, raw) {
        return Err(ToolError::Dangerous {
            path: raw.to_owned(),
            named,
        });
    }
    resolve(config, raw).map_err(|reason| ToolError::BadPath {
        path: raw.to_owned(),
        reason,
        root: config.root.clone(),
    })
}

/// The root-relative, normalised form of `raw` (`.` for the root itself).
pub fn resolve(config: &Config, raw: &str) -> Result<String, PathError> {
    if raw.trim().is_empty() {
        return Err(PathError::Empty);
    }
    if raw.contains('\0') {
        return Err(PathError::Nul);
    }
    let relative = if raw.starts_with('/') {
        strip_root(&config.root, raw).ok_or(PathError::OutsideRoot)?
    } else {
        raw
    };
    let mut parts: Vec<&str> = Vec::new();
    let base = if raw.starts_with('/') {
        ""
    } else {
        config.cwd.as_str()
    };
    for part in base.split('/').chain(relative.split('/')) {
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

/// `raw` without the root prefix, if `raw` lies under the root.
fn strip_root<'a>(root: &str, raw: &'a str) -> Option<&'a str> {
    let root = root.trim_end_matches('/');
    if root.is_empty() {
        return None;
    }
    let rest = raw.strip_prefix(root)?;
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
