//! Directory listings fetched ahead of the guest's walk, on a thread of the
//! host's own: from a directory the guest lists, the tree below it is
//! listed in the order a walk enters it (names sorted at each level, a
//! directory's content right after it), so the walk's next listing is
//! usually ready when asked for and the file system's work overlaps the
//! guest's. At most [`MAX_READY`] listings wait ahead: once the guest asks
//! for a directory, those before it in that order (what its rules left
//! out) are dropped, and a directory the rules leave out costs at most
//! that many listings. Listings fetched ahead live only within the call,
//! and only until it changes a file.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use filetools_core::{DirEntry, FileKind, FsError, HostFs as _};

use crate::backend::Backend;
use crate::limits::Deadline;
use crate::sandbox::KeptOpen;

/// Listings fetched ahead and not yet asked for, at most.
pub const MAX_READY: usize = 64;

/// Directories waiting to be listed ahead, at most.
pub const MAX_QUEUED: usize = 256;

/// Threads listing ahead, at most (fewer on a machine of fewer cores).
pub const MAX_WORKERS: usize = 2;

/// How long a wait for a listing in progress lasts before it looks at the
/// call's deadline again.
const WAIT_STEP: Duration = Duration::from_millis(50);

/// How long a thread with nothing to list waits before it ends (an idle
/// session keeps none).
const IDLE: Duration = Duration::from_secs(1);

type Listing = Result<Vec<DirEntry>, FsError>;

#[derive(Default)]
struct State {
    deadline: Option<Deadline>,
    queue: VecDeque<String>,
    /// The directories being listed now.
    busy: Vec<String>,
    ready: VecDeque<(String, Listing)>,
    /// Raised by every clear: a listing begun before it is dropped.
    generation: u64,
    /// Threads started.
    workers: usize,
    /// Threads waiting for something to list.
    idle: usize,
    /// Whether the walk lists names and kinds alone (`list-names`), and
    /// so the threads ahead.
    names_only: bool,
    /// The listing the walk waits for, while it waits.
    awaited: Option<String>,
    stop: bool,
}

/// What the threads share: the state, a signal for the threads that list
/// (something to list, or room to keep it) and one for the walk (the
/// listing it waits for landed). Each side is woken only when it has
/// something to do: a wake-up per listing would cost more than listing.
#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    work: Condvar,
    landed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Threads listing ahead on this machine: [`MAX_WORKERS`], fewer on a
/// machine of fewer cores.
fn workers() -> usize {
    crate::cores::cores().min(MAX_WORKERS)
}

/// The listings ahead of one session's store.
pub(crate) struct Prefetch {
    backend: Backend,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Prefetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prefetch").finish_non_exhaustive()
    }
}

impl Prefetch {
    /// Listings ahead over `backend`: a root directory only (a file system
    /// a program plugged in is listed when asked).
    pub fn new(backend: Backend) -> Self {
        Self {
            backend,
            shared: Arc::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// The listing of `path` (of names and kinds alone when `names_only`):
    /// the one fetched ahead, or `list`'s now; its subdirectories are then
    /// queued to be listed ahead the same way within `deadline`.
    pub fn list(
        &self,
        path: &str,
        names_only: bool,
        deadline: Deadline,
        list: impl FnOnce() -> Listing,
    ) -> Listing {
        if !matches!(self.backend, Backend::Sandbox(_)) {
            return list();
        }
        {
            let mut state = self.state();
            if state.names_only != names_only {
                // A walk of the other kind: what was fetched is not its.
                forget(&mut state);
                state.names_only = names_only;
            }
        }
        if let Some(ahead) = self.take(path, deadline) {
            return ahead;
        }
        let listing = list();
        if let Ok(entries) = &listing {
            let mut state = self.state();
            state.deadline = Some(deadline);
            queue_children(&mut state, path, entries);
            if state.idle > 0 && !state.queue.is_empty() {
                self.shared.work.notify_all();
            }
            while !state.queue.is_empty() && state.workers < workers() {
                let backend = self.backend.clone();
                let shared = Arc::clone(&self.shared);
                let started = std::thread::Builder::new()
                    .name("filetools-prefetch".to_owned())
                    .spawn(move || work(&backend, &shared));
                if started.is_err() {
                    break;
                }
                state.workers += 1;
            }
        }
        listing
    }

    /// The listing of `path` fetched ahead, waiting for it if it is being
    /// fetched; none when it is not (it is then no longer queued).
    fn take(&self, path: &str, deadline: Deadline) -> Option<Listing> {
        let mut state = self.state();
        let full = state.ready.len() >= MAX_READY;
        // What comes before `path` will not be asked for: the walk is past it.
        while state
            .ready
            .front()
            .is_some_and(|(p, _)| walk_order(p, path).is_lt())
        {
            state.ready.pop_front();
        }
        // Two threads finish listings out of order: one ahead of the walk
        // can shield older ones behind it, so a full list is looked at
        // whole before the threads would wait on it.
        if state.ready.len() >= MAX_READY {
            state.ready.retain(|(p, _)| walk_order(p, path).is_ge());
        }
        while state
            .queue
            .front()
            .is_some_and(|p| walk_order(p, path).is_le())
        {
            state.queue.pop_front();
        }
        let taken = loop {
            if let Some(at) = state.ready.iter().position(|(p, _)| p == path) {
                break state.ready.remove(at).map(|(_, listing)| listing);
            }
            if !state.busy.iter().any(|p| p == path) || deadline.check().is_err() {
                break None;
            }
            state.awaited = Some(path.to_owned());
            state = self
                .shared
                .landed
                .wait_timeout(state, WAIT_STEP)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        };
        state.awaited = None;
        // Threads stopped by a full list of ready listings may go on.
        if full && state.ready.len() < MAX_READY && state.idle > 0 {
            self.shared.work.notify_all();
        }
        taken
    }

    /// Forgets everything fetched or queued: the call is over, or it
    /// changed a file.
    pub fn clear(&self) {
        let mut state = self.state();
        forget(&mut state);
        state.deadline = None;
    }
}

/// Drops what was queued and fetched; a listing under way is dropped when
/// it lands.
fn forget(state: &mut State) {
    state.queue.clear();
    state.ready.clear();
    state.generation += 1;
}

impl Drop for Prefetch {
    fn drop(&mut self) {
        let mut state = self.state();
        state.stop = true;
        state.queue.clear();
        state.ready.clear();
        self.shared.work.notify_all();
    }
}

/// The subdirectories of `path` queued first, in walk order: the first
/// is entered next, and its own subdirectories before the next one's.
fn queue_children(state: &mut State, path: &str, entries: &[DirEntry]) {
    for entry in entries
        .iter()
        .rev()
        .filter(|entry| entry.kind == FileKind::Directory)
    {
        let child = if path == "." {
            entry.name.clone()
        } else {
            format!("{path}/{}", entry.name)
        };
        state.queue.push_front(child);
    }
    state.queue.truncate(MAX_QUEUED);
}

/// The order a walk enters directories in: by their names, level by level.
fn walk_order(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |path| str::split(path, '/').filter(|part| *part != ".");
    parts(a).cmp(parts(b))
}

/// The thread that lists ahead, until its store is dropped.
fn work(backend: &Backend, shared: &Shared) {
    loop {
        let mut state = shared.lock();
        let (path, deadline, generation, names_only) = loop {
            if state.stop {
                return;
            }
            if let (Some(deadline), Some(path), true) = (
                state.deadline,
                state.queue.front().cloned(),
                state.ready.len() < MAX_READY,
            ) {
                state.queue.pop_front();
                break (path, deadline, state.generation, state.names_only);
            }
            state.idle += 1;
            let (waited, timeout) = shared
                .work
                .wait_timeout(state, IDLE)
                .unwrap_or_else(PoisonError::into_inner);
            state = waited;
            state.idle -= 1;
            if timeout.timed_out() && state.queue.is_empty() {
                state.workers -= 1;
                return;
            }
        };
        state.busy.push(path.clone());
        drop(state);
        let kept = KeptOpen::default();
        let listing = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let fs = backend.for_call(deadline, &kept);
            if names_only {
                fs.list_names(&path)
            } else {
                fs.list_dir(&path)
            }
        }))
        .unwrap_or_else(|_| Err(FsError::Io("listing ahead failed".to_owned())));
        let mut state = shared.lock();
        state.busy.retain(|p| *p != path);
        if state.awaited.as_ref() == Some(&path) {
            shared.landed.notify_one();
        }
        if state.generation == generation {
            if let Ok(entries) = &listing {
                queue_children(&mut state, &path, entries);
                if state.idle > 0 && !state.queue.is_empty() {
                    shared.work.notify_one();
                }
            }
            state.ready.push_back((path, listing));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Sandbox;

    fn names(listing: &Listing) -> Vec<String> {
        listing
            .as_ref()
            .unwrap()
            .iter()
            .map(|entry| entry.name.clone())
            .collect()
    }

    #[test]
    fn a_walk_gets_the_listings_fetched_ahead_and_none_after_a_change() {
        let root = std::env::temp_dir().join(format!("filetools-prefetch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["a/x", "a/y", "b"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("a/x/one.txt"), "1").unwrap();
        let sandbox = Arc::new(Sandbox::open(&root, false).unwrap());
        let direct = |path: &str| sandbox.list_dir(path);
        let prefetch = Prefetch::new(Backend::Sandbox(Arc::clone(&sandbox)));
        let never = || -> Listing { panic!("listed by the caller, not ahead") };
        assert_eq!(
            names(&prefetch.list(".", false, Deadline::NEVER, || direct("."))),
            ["a", "b"]
        );
        // Each of these was listed ahead, in the order a walk asks.
        for (path, expected) in [
            ("a", vec!["x", "y"]),
            ("a/x", vec!["one.txt"]),
            ("a/y", vec![]),
            ("b", vec![]),
        ] {
            std::thread::sleep(Duration::from_millis(20));
            assert_eq!(
                names(&prefetch.list(path, false, Deadline::NEVER, never)),
                expected,
                "{path}"
            );
        }
        // A change clears what was fetched: the next listing is the caller's own.
        assert_eq!(
            names(&prefetch.list(".", false, Deadline::NEVER, || direct("."))),
            ["a", "b"]
        );
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(root.join("a/two.txt"), "2").unwrap();
        prefetch.clear();
        let listed = prefetch.list("a", false, Deadline::NEVER, || direct("a"));
        assert_eq!(names(&listed), ["two.txt", "x", "y"]);
        drop(prefetch);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_walk_order_is_by_name_level_by_level() {
        let mut paths = vec!["a-c", "a/b", ".", "a", "a/b/c", "b"];
        paths.sort_by(|x, y| walk_order(x, y));
        assert_eq!(paths, [".", "a", "a/b", "a/b/c", "a-c", "b"]);
    }
}
