//! The precompiled component on disk: loading it takes about a millisecond,
//! loading the machine code built into the binary about 25, and compiling
//! the component about two seconds. A precompiled artifact is native
//! code that runs outside the wasm sandbox, so it is trusted only where
//! nobody else can write it, and only when it is intact.
//!
//! - **A private directory.** The cache directory is created `0700`, and
//!   refused when it belongs to another user, when others may write to it,
//!   or when it lies inside the sandbox root (where the model itself could
//!   write a crafted artifact). The default is `$XDG_CACHE_HOME/filetools`
//!   or `~/.cache/filetools`; when that is refused, `$XDG_RUNTIME_DIR/filetools`
//!   and then `$TMPDIR/filetools-UID` are tried. Refused everywhere, the
//!   machine code precompiled when the host was built is loaded (or, when
//!   it does not suit this machine, the component is compiled in memory),
//!   and [`Tools::cache_refusal`] says why.
//! - **A first start.** With no artifact yet, the machine code precompiled
//!   when the host was built is loaded, and stored as the artifact; only
//!   when it does not suit this engine is the component compiled.
//! - **An intact artifact.** Beside each artifact lies its size and its
//!   XXH3-128 digest. Both are checked before the artifact is loaded — the
//!   file must also be a regular file of this user that others cannot
//!   write — and what is loaded is the very file checked (on Linux, through
//!   `/proc/self/fd`). A bad or missing one is replaced by a fresh compile,
//!   never run. The digest guards against damage (a truncated copy, a disk
//!   error, an editor); against someone who can write the directory no
//!   digest stored in it would help, which is why the directory must be
//!   private.
//! - **Checked once per version.** Reading and hashing the 20 MB artifact
//!   took most of a one-shot `filetools read` (about 4 of its 8 ms). Once
//!   its digest checks out, the file's identity (device, inode, size,
//!   modification and change times) is recorded beside it; a later start
//!   that finds the same identity maps the file without reading it. Any
//!   change to the file, in place or by a rename, changes that identity
//!   (the change time cannot be set back), so the digest is checked again.
//! - **Swept after a build.** Each build of the component brings an artifact
//!   of its own (about 20 MB with the grammars'). When a start stores a new
//!   one, the others are swept: at most [`MAX_KEPT_ARTIFACTS`] are kept, the
//!   most recently used first, and none unused for [`MAX_UNUSED_DAYS`] days.
//!   A start that loads an artifact marks it used (at most once a day, so a
//!   start writes nothing on most days). A process that has a swept
//!   artifact mapped keeps it; the next start of its build stores it again.
//!   `filetools cache` shows the directory and what it holds, and
//!   `filetools cache --clear` empties it.
//! - Artifacts and digests are written by [`crate::private_file::replace`]: whole,
//!   `0600`, renamed into place, never modified in place — a process that
//!   has one mapped keeps its version.
//!
//! [`Tools::cache_refusal`]: crate::Tools::cache_refusal

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::io::Read as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::Result;
use cap_std::fs::Dir;
use rustix::fs::{Mode, OFlags};
use wasmtime::Engine;
use wasmtime::component::Component;
use xxhash_rust::xxh3::Xxh3;

use crate::engine::{LoadSource, precompiled, sha256_hex};
use crate::private_dir::{self, Places};
use crate::private_file;

/// Hex digits of the component's SHA-256 in a cache file's name.
const CACHE_KEY_HEX_DIGITS: usize = 24;

/// Where the cache goes by default.
const CACHE_PLACES: Places = Places {
    explicit: "FILETOOLS_CACHE_DIR",
    xdg: "XDG_CACHE_HOME",
    under_home: ".cache",
};

/// What a digest file starts with: the algorithm.
const DIGEST_TAG: &str = "xxh3-128";

/// Largest digest or identity file read (each line is under 100 bytes).
const MAX_SMALL_FILE_BYTES: u64 = 256;

/// Bytes of the artifact hashed per read.
const HASH_PIECE_BYTES: usize = 1024 * 1024;

/// Artifacts a sweep keeps at most, the most recently used: four builds,
/// each with the tools' and the grammars' component.
pub const MAX_KEPT_ARTIFACTS: usize = 8;

/// Days an artifact may go unused before a sweep removes it.
pub const MAX_UNUSED_DAYS: u64 = 30;

/// How old a use mark gets before a start that loads the artifact renews
/// it.
const USE_MARK_INTERVAL: Duration = Duration::from_hours(24);

/// What an artifact's file names start and end with.
const ARTIFACT_PREFIX: &str = "filetools-";
const ARTIFACT_SUFFIX: &str = ".cwasm";

/// One artifact in the cache.
#[derive(Debug, Clone)]
pub struct Artifact {
    /// Its file name.
    pub name: String,
    /// Bytes, with its digest and use mark.
    pub bytes: u64,
    /// When a start last stored or loaded it.
    pub used: SystemTime,
}

/// A usable cache directory.
#[derive(Debug)]
pub struct Cache {
    /// Its path, for messages.
    path: PathBuf,
    /// The directory, opened once it passed its checks.
    dir: Dir,
}

impl Cache {
    /// The first usable directory: `explicit` alone when given, else the
    /// default places in order. The error says why the first was refused.
    pub fn choose(explicit: Option<PathBuf>, root: Option<&Path>) -> Result<Self, String> {
        let candidates = match explicit {
            Some(dir) => vec![dir],
            None => private_dir::places(&CACHE_PLACES),
        };
        let mut first_refusal = None;
        for path in candidates {
            match private_dir::open(&path, root) {
                Ok(dir) => return Ok(Self { path, dir }),
                Err(why) => {
                    first_refusal.get_or_insert_with(|| {
                        format!(
                            "the precompiled-component cache {} is not used: {why}; each start loads the component from the binary's own machine code (or compiles it, about 2 s, when that does not suit this machine). Set FILETOOLS_CACHE_DIR to a private directory outside the workspace",
                            path.display()
                        )
                    });
                }
            }
        }
        Err(first_refusal.unwrap_or_else(|| {
            "no cache directory (no HOME, XDG_CACHE_HOME or FILETOOLS_CACHE_DIR)".to_owned()
        }))
    }

    /// Loads the component precompiled when an intact artifact is here,
    /// else takes the build-time machine code (compiling only when that
    /// does not suit this engine) and stores the artifact for the next
    /// start.
    pub(crate) fn load(&self, engine: &Engine, wasm: &[u8]) -> Result<(Component, LoadSource)> {
        let name = artifact_name(engine, wasm);
        if let Some(component) = self.load_checked(engine, &name) {
            return Ok((component, LoadSource::Cached));
        }
        if let Some((component, machine_code)) = precompiled(engine, wasm) {
            let _ = self.store(&name, machine_code);
            self.sweep(&name);
            return Ok((component, LoadSource::Precompiled));
        }
        let component = Component::new(engine, wasm)?;
        // A cache that cannot be written only costs the next start a compile.
        let _ = self.store(&name, &component.serialize()?);
        self.sweep(&name);
        Ok((component, LoadSource::Compiled))
    }

    /// Where the cache is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The artifacts here, the most recently used first.
    pub fn artifacts(&self) -> Vec<Artifact> {
        let Ok(entries) = self.dir.entries() else {
            return Vec::new();
        };
        let mut found: Vec<Artifact> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| name.starts_with(ARTIFACT_PREFIX) && name.ends_with(ARTIFACT_SUFFIX))
            .filter_map(|name| {
                let os = OsString::from(&name);
                let meta = |n: &OsStr| self.dir.symlink_metadata(n).ok();
                let artifact = meta(&os)?;
                let companions = [digest_name(&os), checked_name(&os)].map(|n| meta(&n));
                let mut used = artifact.modified().ok()?.into_std();
                let mut bytes = artifact.len();
                for companion in companions.iter().flatten() {
                    bytes += companion.len();
                    used = used.max(
                        companion
                            .modified()
                            .map_or(used, cap_std::time::SystemTime::into_std),
                    );
                }
                Some(Artifact { name, bytes, used })
            })
            .collect();
        found.sort_by(|a, b| b.used.cmp(&a.used).then_with(|| a.name.cmp(&b.name)));
        found
    }

    /// Removes the artifact `name` with its digest and use mark.
    pub fn remove(&self, name: &str) {
        let os = OsString::from(name);
        for file in [digest_name(&os), checked_name(&os), os] {
            let _ = self.dir.remove_file(&file);
        }
    }

    /// Keeps `stored` and, of the others, the most recently used up to
    /// [`MAX_KEPT_ARTIFACTS`] in all, each used within
    /// [`MAX_UNUSED_DAYS`]; removes the rest.
    fn sweep(&self, stored: &OsStr) {
        let now = SystemTime::now();
        let max_unused = Duration::from_secs(MAX_UNUSED_DAYS * 86_400);
        let mut kept = 1;
        for artifact in self.artifacts() {
            if artifact.name.as_str() == stored {
                continue;
            }
            let recent = now
                .duration_since(artifact.used)
                .is_ok_and(|age| age <= max_unused)
                || artifact.used > now;
            if recent && kept < MAX_KEPT_ARTIFACTS {
                kept += 1;
            } else {
                self.remove(&artifact.name);
            }
        }
    }

    /// Renews the use mark of the artifact `name` when it is older than
    /// [`USE_MARK_INTERVAL`].
    fn mark_used(&self, name: &OsStr, identity: &str) {
        let checked = checked_name(name);
        let stale = self
            .dir
            .symlink_metadata(&checked)
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|marked| SystemTime::now().duration_since(marked.into_std()).ok())
            .is_none_or(|age| age > USE_MARK_INTERVAL);
        if stale {
            let _ = private_file::replace_in(&self.dir, &checked, identity.as_bytes());
        }
    }

    /// The artifact `name`, when it and its digest check out.
    fn load_checked(&self, engine: &Engine, name: &OsStr) -> Option<Component> {
        let (size, digest) = self.read_digest(name)?;
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let file = File::from(rustix::fs::openat(&self.dir, name, flags, Mode::empty()).ok()?);
        let meta = file.metadata().ok()?;
        let trusted = meta.is_file()
            && meta.uid() == rustix::process::geteuid().as_raw()
            && meta.mode() & 0o022 == 0
            && meta.len() == size;
        if !trusted {
            return None;
        }
        let identity = identity_of(&meta);
        if self.read_checked(name).as_deref() == Some(identity.as_str()) {
            self.mark_used(name, &identity);
        } else {
            if digest_of(&file)? != digest {
                return None;
            }
            // Not recorded only costs the next start the check again.
            let _ = private_file::replace_in(&self.dir, &checked_name(name), identity.as_bytes());
        }
        let path = self.path_of(&file, name);
        // SAFETY: the file was written by `Component::serialize` with this
        // engine's configuration (its name carries the compatibility hash),
        // into a directory only this user can write, whole and renamed into
        // place, never modified in place; its digest was just checked, and
        // the path names the very file checked. wasmtime also checks the
        // header and version before using it.
        unsafe { Component::deserialize_file(engine, path) }.ok()
    }

    /// A path that names the opened `file`: its descriptor on Linux, so the
    /// file checked is the file loaded; elsewhere its path in the cache.
    fn path_of(&self, file: &File, name: &OsStr) -> PathBuf {
        let by_descriptor = PathBuf::from(format!(
            "/proc/self/fd/{}",
            std::os::fd::AsRawFd::as_raw_fd(file)
        ));
        if cfg!(any(target_os = "linux", target_os = "android")) && by_descriptor.exists() {
            by_descriptor
        } else {
            self.path.join(name)
        }
    }

    /// The size and digest recorded beside the artifact `name`.
    fn read_digest(&self, name: &OsStr) -> Option<(u64, u128)> {
        let text = self.read_small(&digest_name(name))?;
        let mut fields = text.split_whitespace();
        if fields.next()? != DIGEST_TAG {
            return None;
        }
        let digest = u128::from_str_radix(fields.next()?, 16).ok()?;
        let size = fields.next()?.parse().ok()?;
        Some((size, digest))
    }

    /// The identity recorded when the artifact `name` last checked out.
    fn read_checked(&self, name: &OsStr) -> Option<String> {
        self.read_small(&checked_name(name))
    }

    /// The text of the small file `name` (a digest, an identity).
    fn read_small(&self, name: &OsStr) -> Option<String> {
        let mut text = String::new();
        self.dir
            .open(name)
            .ok()?
            .take(MAX_SMALL_FILE_BYTES)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    }

    /// Stores the artifact, then its digest.
    fn store(&self, name: &OsStr, bytes: &[u8]) -> std::io::Result<()> {
        private_file::replace_in(&self.dir, name, bytes)?;
        let digest = xxhash_rust::xxh3::xxh3_128(bytes);
        let line = format!("{DIGEST_TAG} {digest:032x} {}\n", bytes.len());
        private_file::replace_in(&self.dir, &digest_name(name), line.as_bytes())
    }
}

/// The XXH3-128 of `file`'s whole content.
fn digest_of(mut file: &File) -> Option<u128> {
    let mut hasher = Xxh3::new();
    let mut buf = vec![0; HASH_PIECE_BYTES];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Some(hasher.digest128()),
            Ok(n) => hasher.update(&buf[..n]),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// The artifact's name: the crate version, the component's digest and the
/// engine's compatibility hash, so another build or engine never meets it.
fn artifact_name(engine: &Engine, wasm: &[u8]) -> OsString {
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    let digest = sha256_hex(wasm);
    let short = &digest[..CACHE_KEY_HEX_DIGITS];
    OsString::from(format!(
        "filetools-{}-{short}-{:016x}.cwasm",
        env!("CARGO_PKG_VERSION"),
        hasher.finish()
    ))
}

/// What identifies one version of a file: a rewrite in place moves its
/// change time, a replacement brings another inode.
fn identity_of(meta: &std::fs::Metadata) -> String {
    format!(
        "{} {} {} {}.{:09} {}.{:09}\n",
        meta.dev(),
        meta.ino(),
        meta.len(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec()
    )
}

/// The name of the identity recorded beside the artifact `name` once its
/// digest checked out.
fn checked_name(name: &OsStr) -> OsString {
    let mut checked = name.to_os_string();
    checked.push(".checked");
    checked
}

/// The name of the digest beside the artifact `name`.
fn digest_name(name: &OsStr) -> OsString {
    let mut digest = name.to_os_string();
    digest.push(".digest");
    digest
}
