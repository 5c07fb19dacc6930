//! Paths inside the sandbox: the guest's form, the spellings of the root,
//! and symlinks.
//!
//! cap-std resolves every path beneath the root and refuses whatever leads
//! out, including every absolute symlink. A symlink whose absolute target
//! lies under the root — under its canonical path or the spelling it was
//! opened by (`ln -s $ROOT/target.txt $ROOT/link`) — is followed here
//! instead: [`Sandbox::with_links`] retries a refused path with its links
//! resolved one component at a time, each absolute target mapped back under
//! the root or refused. A change follows links at its target the same way,
//! so writing through an in-root link changes the file it points to and
//! keeps the link.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};

use cap_std::fs::Dir;
use filetools_core::FsError;

use super::{Sandbox, fs_error};
use crate::limits::Deadline;

/// Symlinks followed in one path before it is refused as a loop.
const MAX_LINKS: usize = 40;

/// Checks the guest's path form: relative, normalised, no `..`.
pub(super) fn checked(path: &str) -> Result<&Path, FsError> {
    let p = Path::new(path);
    if path.is_empty() || path.contains('\0') {
        return Err(FsError::OutsideSandbox);
    }
    for component in p.components() {
        match component {
            Component::Normal(_) | Component::CurDir => {}
            _ => return Err(FsError::OutsideSandbox),
        }
    }
    Ok(p)
}

/// Every absolute spelling of the root: `canonical`, then `given` made
/// absolute (against the working directory the user sees, `$PWD`) and
/// normalised, when it names the same directory by another path.
pub(super) fn spellings(given: &Path, canonical: &Path) -> Vec<String> {
    let mut spellings = vec![canonical.to_string_lossy().into_owned()];
    let absolute = if given.is_absolute() {
        given.to_path_buf()
    } else {
        match logical_cwd() {
            Some(cwd) => cwd.join(given),
            None => return spellings,
        }
    };
    let normal = normalise(&absolute);
    if let Some(text) = normal.to_str()
        && !spellings.iter().any(|s| s == text)
        && same_directory(&normal, canonical)
    {
        spellings.push(text.to_owned());
    }
    spellings
}

/// The working directory as the user spells it: `$PWD` when it names the
/// current directory (it keeps the symlinks the user went through), else
/// the current directory.
fn logical_cwd() -> Option<PathBuf> {
    let physical = std::env::current_dir().ok()?;
    match std::env::var_os("PWD").map(PathBuf::from) {
        Some(pwd) if pwd.is_absolute() && same_directory(&pwd, &physical) => Some(pwd),
        _ => Some(physical),
    }
}

/// Whether `a` and `b` are the same directory (device and inode).
fn same_directory(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.is_dir() && a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// `path` with `.`, `..` and repeated separators resolved lexically.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::ParentDir => {
                out.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// The change target of a write or removal: its directory, opened, and its
/// name there.
#[derive(Debug)]
pub(super) struct Target {
    /// The directory holding the target.
    pub parent: Dir,
    /// That directory relative to the root, links resolved (empty: the root).
    pub parent_rel: PathBuf,
    /// The target's name in it.
    pub name: OsString,
}

impl Sandbox {
    /// Runs `op` on `path`; when cap-std refuses the path as leading out,
    /// runs it again on the path with its symlinks resolved, which follows
    /// absolute links that stay under the root.
    pub(super) fn with_links<T>(
        &self,
        path: &Path,
        deadline: Deadline,
        op: impl Fn(&Path) -> io::Result<T>,
    ) -> Result<T, FsError> {
        match op(path).map_err(fs_error) {
            Err(FsError::OutsideSandbox) => {
                let resolved = self.resolve_links(path, deadline)?;
                op(&resolved).map_err(fs_error)
            }
            other => other,
        }
    }

    /// `path` with every symlink in it resolved under the root: a relative
    /// path without links (what does not exist is kept as given), or
    /// `outside-sandbox` when a link leads out or they loop.
    pub(super) fn resolve_links(
        &self,
        path: &Path,
        deadline: Deadline,
    ) -> Result<PathBuf, FsError> {
        let mut done = PathBuf::new();
        let mut pending: VecDeque<OsString> = parts(path).collect();
        let mut links = 0;
        while let Some(part) = pending.pop_front() {
            deadline.check()?;
            if part == ".." {
                if !done.pop() {
                    return Err(FsError::OutsideSandbox);
                }
                continue;
            }
            let candidate = done.join(&part);
            let is_link = match self.dir.symlink_metadata(&candidate) {
                Ok(meta) => meta.file_type().is_symlink(),
                Err(err) if err.kind() == io::ErrorKind::NotFound => false,
                Err(err) => return Err(fs_error(err)),
            };
            if !is_link {
                done = candidate;
                continue;
            }
            links += 1;
            if links > MAX_LINKS {
                return Err(FsError::OutsideSandbox);
            }
            let target = self.dir.read_link_contents(&candidate).map_err(fs_error)?;
            let rest: Vec<OsString> = if target.is_absolute() {
                done = PathBuf::new();
                parts(&self.under_root(&target)?).collect()
            } else {
                parts(&target).collect()
            };
            for part in rest.into_iter().rev() {
                pending.push_front(part);
            }
        }
        Ok(done)
    }

    /// The absolute `target` relative to the root, if it lies under one of
    /// the root's spellings.
    fn under_root(&self, target: &Path) -> Result<PathBuf, FsError> {
        let target = normalise(target);
        self.spellings
            .iter()
            .find_map(|root| target.strip_prefix(root).ok())
            .map(Path::to_path_buf)
            .ok_or(FsError::OutsideSandbox)
    }

    /// The directory and name a write (`create`: its parents are made) or a
    /// removal of `path` acts on. Symlinks at the target are followed while
    /// they stay under the root, so the link itself is kept.
    pub(super) fn change_target(
        &self,
        path: &Path,
        create: bool,
        deadline: Deadline,
    ) -> Result<Target, FsError> {
        let mut path = path.to_path_buf();
        for _ in 0..=MAX_LINKS {
            let Some(name) = path.file_name().map(OsStr::to_os_string) else {
                return Err(FsError::IsADirectory);
            };
            let parent_rel =
                self.resolve_links(path.parent().unwrap_or(Path::new("")), deadline)?;
            let parent = self.open_parent(&parent_rel, create)?;
            match parent.symlink_metadata(&name) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let link = parent.read_link_contents(&name).map_err(fs_error)?;
                    path = if link.is_absolute() {
                        self.under_root(&link)?
                    } else {
                        parent_rel.join(link)
                    };
                }
                _ => {
                    return Ok(Target {
                        parent,
                        parent_rel,
                        name,
                    });
                }
            }
        }
        Err(FsError::OutsideSandbox)
    }

    /// Opens the directory `rel` (links already resolved), making it and its
    /// missing parents first when `create` is set.
    fn open_parent(&self, rel: &Path, create: bool) -> Result<Dir, FsError> {
        let rel = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        // Most writes go to a directory that exists: it is opened before
        // anything is made.
        match self.dir.open_dir(rel) {
            Err(err) if create && err.kind() == io::ErrorKind::NotFound => {
                self.dir.create_dir_all(rel).map_err(fs_error)?;
                self.dir.open_dir(rel).map_err(fs_error)
            }
            opened => opened.map_err(fs_error),
        }
    }
}

/// The components of `path` that name something: `.` and the root dropped,
/// `..` kept for the caller to resolve.
fn parts(path: &Path) -> impl Iterator<Item = OsString> + '_ {
    path.components().filter_map(|component| match component {
        Component::Normal(part) => Some(part.to_os_string()),
        Component::ParentDir => Some(OsString::from("..")),
        _ => None,
    })
}
