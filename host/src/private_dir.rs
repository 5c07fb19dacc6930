//! Directories that only this user can write, outside the workspace: the
//! precompiled-component cache and the records of changes under way hold
//! what the host later trusts (machine code, old file contents to put
//! back), so a directory another user — or the model, through the
//! workspace — could write is never used.

use std::os::unix::fs::DirBuilderExt as _;
use std::path::{Path, PathBuf};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, MetadataExt as _};

/// Where a kind of directory goes by default.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Places {
    /// The variable that names the directory outright.
    pub explicit: &'static str,
    /// The XDG base-directory variable, under which `filetools` goes.
    pub xdg: &'static str,
    /// The XDG default under `$HOME`, when that variable is unset.
    pub under_home: &'static str,
}

/// Where the state directory goes by default: the records of changes
/// under way, and the turns taken in directories.
pub(crate) const STATE: Places = Places {
    explicit: "FILETOOLS_STATE_DIR",
    xdg: "XDG_STATE_HOME",
    under_home: ".local/state",
};

/// The directories to try, in order: the explicit variable's alone when it
/// is set; else the XDG place, `$XDG_RUNTIME_DIR/filetools`, and
/// `$TMPDIR/filetools-UID`.
pub(crate) fn places(kind: &Places) -> Vec<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var(kind.explicit) {
        return vec![dir];
    }
    let mut places = Vec::new();
    if let Some(dir) = var(kind.xdg) {
        places.push(dir.join("filetools"));
    } else if let Some(home) = var("HOME") {
        places.push(home.join(kind.under_home).join("filetools"));
    }
    if let Some(dir) = var("XDG_RUNTIME_DIR") {
        places.push(dir.join("filetools"));
    }
    let tmp = var("TMPDIR").unwrap_or_else(std::env::temp_dir);
    places.push(tmp.join(format!("filetools-{}", rustix::process::geteuid().as_raw())));
    places
}

/// `sub` under the first of `kind`'s places (or `explicit` alone, when
/// given) that is private and outside `root`; else the first place tried
/// and why it was refused.
pub(crate) fn open_first(
    kind: &Places,
    explicit: Option<&Path>,
    sub: &str,
    root: &Path,
) -> Result<Dir, (PathBuf, String)> {
    let candidates = match explicit {
        Some(dir) => vec![dir.to_path_buf()],
        None => places(kind),
    };
    let mut refusal = None;
    for base in candidates {
        match open(&base.join(sub), Some(root)) {
            Ok(dir) => return Ok(dir),
            Err(why) => {
                refusal.get_or_insert((base, why));
            }
        }
    }
    Err(refusal.unwrap_or_else(|| (PathBuf::new(), "no place was given".to_owned())))
}

/// Opens `path`, creating it `0700` when missing, if it is this user's
/// alone and outside `root`; else says why not.
pub(crate) fn open(path: &Path, root: Option<&Path>) -> Result<Dir, String> {
    let inside = |canonical: &Path| {
        let root = root?;
        canonical.starts_with(root).then(|| {
            format!(
                "it lies inside the workspace root {}, where the model can write",
                root.display()
            )
        })
    };
    if let Some(why) = inside(&canonical_to_be(path)) {
        return Err(why);
    }
    if !path.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(path)
            .map_err(|err| format!("it cannot be created ({err})"))?;
    }
    let canonical = path
        .canonicalize()
        .map_err(|err| format!("it cannot be opened ({err})"))?;
    if let Some(why) = inside(&canonical) {
        return Err(why);
    }
    let dir = Dir::open_ambient_dir(&canonical, ambient_authority())
        .map_err(|err| format!("it cannot be opened ({err})"))?;
    let meta = dir
        .dir_metadata()
        .map_err(|err| format!("it cannot be examined ({err})"))?;
    if meta.uid() != rustix::process::geteuid().as_raw() {
        return Err("it belongs to another user".to_owned());
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!(
            "others may write to it (mode {:o}); make it private with chmod 700",
            meta.mode() & 0o777
        ));
    }
    Ok(dir)
}

/// The canonical path `path` will have once created: its deepest existing
/// ancestor resolved, the rest appended.
fn canonical_to_be(path: &Path) -> PathBuf {
    let mut missing = Vec::new();
    let mut existing = path;
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            return missing.iter().rev().fold(canonical, |p, part| p.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name);
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}
