//! Sessions served from a shared store: a call takes its session's lease,
//! brings the session in (the copy kept in memory when the store holds no
//! newer version, else the stored log), runs, and saves what it changed as
//! a compare-and-set on the version it started from. A session idle past
//! [`Limits::idle`] leaves memory; its next call brings it back.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::store::{Lease, Saved, SessionStore, Turn, Update};
use super::workspaces::Workspace;
use crate::{Block, Session, ToolResult};

/// Lines a stored log grows to before it is written whole again.
const MAX_LOG_LINES: usize = 1000;

/// How often a call waiting for its session's lease looks again.
const LEASE_POLL: Duration = Duration::from_millis(5);

/// How long sessions stay in memory, and how many.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A session idle this long leaves memory.
    pub idle: Duration,
    /// At most this many sessions stay in memory; the least recently used
    /// leave first.
    pub resident: usize,
    /// A lease lasts this long unless renewed (a running call renews it)
    /// or given back: how long a replica that died holds a session up.
    pub lease: Duration,
    /// A call waits this long for its session's lease.
    pub lease_wait: Duration,
}

/// One session in memory, with the stored version it matches.
#[derive(Debug, Default)]
struct Slot {
    session: Option<Session>,
    version: u64,
    lines: usize,
    used: Option<Instant>,
}

/// How a go at a call ended.
#[derive(Debug)]
enum Outcome {
    Answer(ToolResult),
    /// A read whose save found the session moved on: run it again.
    Again,
}

/// Whether a read may run again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Retry {
    Allowed,
    Spent,
}

/// Whether a call's session must be in the store already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Named by the model or the client: unknown is an error.
    Named,
    /// New, or bound to the client's MCP session: starts empty.
    Fresh,
}

/// One call to run.
#[derive(Debug)]
pub struct Call<'a> {
    pub key: &'a str,
    pub handle: &'a str,
    pub known: Known,
    pub tool: &'a str,
    pub arguments: &'a str,
    pub cancel: &'a Arc<AtomicBool>,
}

/// The leases of the calls running now, by session key.
type Held = Mutex<HashMap<String, Lease>>;

/// The sessions of every workspace this process serves.
#[derive(Debug)]
pub struct Sessions {
    store: Arc<dyn SessionStore>,
    resident: Mutex<HashMap<String, Arc<Mutex<Slot>>>>,
    /// Renewed by one thread while their calls run, so a lease outlives a
    /// long call but not a dead replica by more than [`Limits::lease`].
    held: Arc<Held>,
    limits: Limits,
}

/// A call's lease in [`Sessions::held`] until dropped.
struct Renewed<'a> {
    held: &'a Held,
    key: &'a str,
}

impl Drop for Renewed<'_> {
    fn drop(&mut self) {
        lock(self.held).remove(self.key);
    }
}

/// How many times a lease is renewed within its time to live.
const RENEWALS_PER_LEASE: u32 = 4;

/// Renews every lease in `held` a few times per `ttl`, until `held` is
/// gone.
fn renew_leases(held: &Arc<Held>, store: Arc<dyn SessionStore>, ttl: Duration) {
    let held = Arc::downgrade(held);
    let every = ttl / RENEWALS_PER_LEASE;
    let renewing = move || {
        loop {
            std::thread::sleep(every);
            let Some(held) = held.upgrade() else {
                return;
            };
            let leases: Vec<(String, Lease)> =
                lock(&held).iter().map(|(k, l)| (k.clone(), *l)).collect();
            drop(held);
            for (key, lease) in leases {
                // A lease that ran out anyway is caught by the save's
                // compare-and-set.
                let _ = store.renew(&key, lease, ttl);
            }
        }
    };
    // Without the thread leases are not renewed: a call longer than a
    // lease then finds its record not kept, and says so.
    let _ = std::thread::Builder::new()
        .name("filetools-leases".to_owned())
        .spawn(renewing);
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Sessions {
    pub fn new(store: Arc<dyn SessionStore>, limits: Limits) -> Self {
        let held = Arc::new(Held::default());
        renew_leases(&held, Arc::clone(&store), limits.lease);
        Self {
            store,
            resident: Mutex::new(HashMap::new()),
            held,
            limits,
        }
    }

    /// Runs `call` in `workspace`; every failure is an answer.
    pub fn run(&self, workspace: &Workspace, call: &Call<'_>) -> ToolResult {
        let slot = Arc::clone(lock(&self.resident).entry(call.key.to_owned()).or_default());
        let mut slot = lock(&slot);
        if let Some(result) = self.read_without_lease(&mut slot, workspace, call) {
            slot.used = Some(Instant::now());
            return result;
        }
        // The lease ran out mid-call and another call saved first: a read
        // runs again on the fresh state; a change is never run twice, and
        // its answer says its record was not kept.
        let result = match self.run_once(&mut slot, workspace, call, Retry::Allowed) {
            Outcome::Answer(result) => result,
            Outcome::Again => match self.run_once(&mut slot, workspace, call, Retry::Spent) {
                Outcome::Answer(result) => result,
                Outcome::Again => refusal(
                    "Error: the session kept moving on while this read ran; try again.".to_owned(),
                    "busy",
                ),
            },
        };
        slot.used = Some(Instant::now());
        result
    }

    /// A read on the copy in memory, without the lease: kept when its save
    /// finds the session where the copy left it and no change under way
    /// (one round trip to the store); `None` when it must run under the
    /// lease on the stored state instead (its answer, from a copy that may
    /// be stale, is dropped).
    fn read_without_lease(
        &self,
        slot: &mut Slot,
        workspace: &Workspace,
        call: &Call<'_>,
    ) -> Option<ToolResult> {
        if !workspace.listing.is_read_only(call.tool) || slot.version == 0 {
            return None;
        }
        let session = slot.session.as_mut()?;
        let result = session.call_cancellable(call.tool, call.arguments, call.cancel);
        let kept = match self.save(slot, call.key, Turn::Free) {
            Ok(Some(saved)) => matches!(saved, Saved::Stored(_)),
            // Nothing to save: the copy must still be the stored version.
            Ok(None) => self.store.version(call.key).ok() == Some(Some(slot.version)),
            Err(_) => false,
        };
        if kept {
            return Some(result);
        }
        slot.session = None;
        None
    }

    /// One go at `call`: the lease and the stored version, the session
    /// brought in, the call, the save that gives the lease back.
    fn run_once(
        &self,
        slot: &mut Slot,
        workspace: &Workspace,
        call: &Call<'_>,
        retry: Retry,
    ) -> Outcome {
        let (lease, stored) = match self.lease(call.key) {
            Ok(Some(taken)) => taken,
            Ok(None) => {
                return Outcome::Answer(refusal(
                    format!(
                        "Error: session {} is busy with another call for over {} s; nothing was run. Try again.",
                        call.handle,
                        self.limits.lease_wait.as_secs()
                    ),
                    "busy",
                ));
            }
            Err(err) => return Outcome::Answer(unreachable_store(&err)),
        };
        lock(&self.held).insert(call.key.to_owned(), lease);
        let _renewed = Renewed {
            held: &self.held,
            key: call.key,
        };
        let release = |result: ToolResult| {
            // A lease not given back runs out by itself.
            let _ = self.store.release(call.key, lease);
            result
        };
        if let Err(answer) = self.bring_in(slot, workspace, call, stored) {
            return Outcome::Answer(release(answer));
        }
        let Some(session) = slot.session.as_mut() else {
            return Outcome::Answer(release(host_error(&anyhow::anyhow!("no session"))));
        };
        let mut result = session.call_cancellable(call.tool, call.arguments, call.cancel);
        match self.save(slot, call.key, Turn::Held(lease)) {
            Ok(Some(Saved::Stored(_))) => Outcome::Answer(result),
            Ok(None) => Outcome::Answer(release(result)),
            Ok(Some(Saved::Moved)) => {
                slot.session = None;
                let _ = self.store.release(call.key, lease);
                if retry == Retry::Allowed && workspace.listing.is_read_only(call.tool) {
                    return Outcome::Again;
                }
                result.content.push(Block::Text(
                    "[this session's record of the call above was not kept: another call on the session was saved first; read the file again before changing it]"
                        .to_owned(),
                ));
                Outcome::Answer(result)
            }
            Err(err) => {
                slot.session = None;
                result.content.push(Block::Text(format!(
                    "[this session's record of the call above was not saved ({err:#}); read the file again before changing it]"
                )));
                Outcome::Answer(release(result))
            }
        }
    }

    /// The session's lease and stored version, waiting up to the limit
    /// while another call holds it.
    fn lease(&self, key: &str) -> Result<Option<(Lease, Option<u64>)>> {
        let started = Instant::now();
        loop {
            if let Some(taken) = self.store.lease(key, self.limits.lease)? {
                return Ok(Some(taken));
            }
            if started.elapsed() >= self.limits.lease_wait {
                return Ok(None);
            }
            std::thread::sleep(LEASE_POLL);
        }
    }

    /// Makes `slot` hold the session stored at version `stored` (or a new
    /// one); an answer when it cannot.
    fn bring_in(
        &self,
        slot: &mut Slot,
        workspace: &Workspace,
        call: &Call<'_>,
        stored: Option<u64>,
    ) -> Result<(), ToolResult> {
        if stored.is_none() && call.known == Known::Named {
            slot.session = None;
            return Err(refusal(
                format!(
                    "Error: session {} is unknown here or expired; nothing was run. Call again without `session` to start a new one, and read files again before changing them.",
                    call.handle
                ),
                "unknown_session",
            ));
        }
        let version = stored.unwrap_or(0);
        if slot.session.is_some() && slot.version == version {
            return Ok(());
        }
        let fresh = || workspace.tools.session().map_err(|e| host_error(&e));
        let mut session = fresh()?;
        slot.version = 0;
        slot.lines = 0;
        if version > 0 {
            let loaded = self
                .store
                .load(call.key)
                .map_err(|e| unreachable_store(&e))?;
            if let Some(loaded) = loaded {
                match session.restore_log(&loaded.log) {
                    Ok((_, lines)) => {
                        slot.version = loaded.version;
                        slot.lines = lines;
                    }
                    // A log this version cannot read starts the session
                    // anew; the next save replaces it.
                    Err(_) => session = fresh()?,
                }
            }
        }
        slot.session = Some(session);
        Ok(())
    }

    /// Saves what the call changed in `turn` (giving a held lease back);
    /// `None` when nothing changed (a lease is still held).
    fn save(&self, slot: &mut Slot, key: &str, turn: Turn) -> Result<Option<Saved>> {
        let Some(session) = slot.session.as_mut() else {
            return Ok(None);
        };
        let (text, lines, whole) = if slot.version == 0 || slot.lines >= MAX_LOG_LINES {
            (session.save_log()?, 1, true)
        } else {
            match session.save_changes()? {
                None => return Ok(None),
                Some(line) => (line, slot.lines + 1, false),
            }
        };
        let update = if whole {
            Update::Replace(&text)
        } else {
            Update::Append(&text)
        };
        let saved = self.store.save(key, slot.version, update, turn)?;
        if let Saved::Stored(version) = saved {
            slot.version = version;
            slot.lines = lines;
        }
        Ok(Some(saved))
    }

    /// Lets sessions idle past the limit, and the least recently used
    /// beyond the count, leave memory (their stored logs stay).
    pub fn evict(&self) {
        let mut resident = lock(&self.resident);
        let mut idle: Vec<(Instant, String)> = Vec::new();
        resident.retain(|key, slot| {
            let Ok(mut held) = slot.try_lock() else {
                return true;
            };
            match held.used {
                Some(used) if used.elapsed() >= self.limits.idle => {
                    held.session = None;
                    false
                }
                Some(used) => {
                    idle.push((used, key.clone()));
                    true
                }
                None => true,
            }
        });
        if idle.len() > self.limits.resident {
            idle.sort();
            for (_, key) in &idle[..idle.len() - self.limits.resident] {
                resident.remove(key);
            }
        }
    }
}

fn refusal(text: String, code: &str) -> ToolResult {
    ToolResult::failure(text, code)
}

fn unreachable_store(err: &anyhow::Error) -> ToolResult {
    refusal(
        format!(
            "Error: the session store cannot be reached ({err:#}); nothing was run. Try again."
        ),
        "store_error",
    )
}

fn host_error(err: &anyhow::Error) -> ToolResult {
    refusal(
        format!("Error: the session could not be started ({err:#}); nothing was run."),
        "host_error",
    )
}
