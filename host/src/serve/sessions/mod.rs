//! Sessions served from a shared store: a call takes its session's lease,
//! brings the session in (the copy kept in memory when the store holds no
//! newer version, else the stored log), runs, and saves what it changed as
//! a compare-and-set on the version it started from. A session idle past
//! [`Limits::idle`] leaves memory; its next call brings it back.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::lock;
use super::store::{Lease, Saved, SessionStore, Turn, Update};
use super::workspaces::Workspace;
use crate::{Block, ToolResult};

mod leases;
mod resident;

use leases::Held;
pub use resident::Limits;
use resident::{Resident, Running, Slot};

/// Lines a stored log grows to before it is written whole again.
const MAX_LOG_LINES: usize = 1000;

/// Times the size it had when last written whole a stored log grows to
/// before it is written whole again: a log holds at most about twice what
/// its session holds, however many calls made it (each line carries what a
/// call changed, and a file's history goes whole into the line of a call
/// that changed it).
const LOG_GROWTH: usize = 2;

/// How often a call waiting for its session's lease looks again.
const LEASE_POLL: Duration = Duration::from_millis(5);

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

/// The sessions of every workspace this process serves.
#[derive(Debug)]
pub struct Sessions {
    store: Arc<dyn SessionStore>,
    resident: Resident,
    held: Arc<Held>,
    running: Running,
    limits: Limits,
}

impl Sessions {
    /// Sessions kept in `store`, at most `calls` of them running at once.
    pub fn new(store: Arc<dyn SessionStore>, limits: Limits, calls: usize) -> Self {
        let held = Arc::new(Held::default());
        leases::renew_leases(&held, Arc::clone(&store), limits.lease);
        Self {
            store,
            resident: Resident::default(),
            held,
            running: Running::new(calls),
            limits,
        }
    }

    /// Runs `call` in `workspace`; every failure is an answer.
    pub fn run(&self, workspace: &Workspace, call: &Call<'_>) -> ToolResult {
        // One deadline for every wait: the session's slot here, its lease,
        // a turn to run. The session comes first, so calls waiting on one
        // busy session hold no turn from the others.
        let deadline = Instant::now() + self.limits.lease_wait;
        let slot = self.resident.slot(call.key);
        let Some(mut slot) = resident::turn(&slot, deadline) else {
            return self.busy(call);
        };
        let result = self.run_in(&mut slot, workspace, call, deadline);
        slot.used = Some(Instant::now());
        self.resident.settle(&mut slot);
        drop(slot);
        if self.resident.over(&self.limits) {
            self.resident.evict(&self.limits);
        }
        result
    }

    /// A turn to run, or the answer that none came.
    fn run_turn(&self, deadline: Instant) -> Result<resident::RunTurn<'_>, ToolResult> {
        self.running.take(deadline).ok_or_else(|| {
            refusal(
                format!(
                    "Error: the server ran as many calls as it may for over {} s; nothing was run. Try again.",
                    self.limits.lease_wait.as_secs()
                ),
                "busy",
            )
        })
    }

    fn busy(&self, call: &Call<'_>) -> ToolResult {
        refusal(
            format!(
                "Error: session {} is busy with another call for over {} s; nothing was run. Try again.",
                shown(call.handle),
                self.limits.lease_wait.as_secs()
            ),
            "busy",
        )
    }

    /// `call` in its session's slot: a read on the copy in memory when it
    /// can, else under the lease; a read whose save found the session
    /// moved on (the lease ran out mid-call and another call saved first)
    /// runs again on the fresh state; a change is never run twice, and its
    /// answer says its record was not kept.
    fn run_in(
        &self,
        slot: &mut Slot,
        workspace: &Workspace,
        call: &Call<'_>,
        deadline: Instant,
    ) -> ToolResult {
        if let Some(result) = self.read_without_lease(slot, workspace, call, deadline) {
            return result;
        }
        match self.run_once(slot, workspace, call, Retry::Allowed, deadline) {
            Outcome::Answer(result) => result,
            Outcome::Again => match self.run_once(slot, workspace, call, Retry::Spent, deadline) {
                Outcome::Answer(result) => result,
                Outcome::Again => refusal(
                    "Error: the session kept moving on while this read ran; try again.".to_owned(),
                    "busy",
                ),
            },
        }
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
        deadline: Instant,
    ) -> Option<ToolResult> {
        if !workspace.listing.is_read_only(call.tool) || slot.version == 0 {
            return None;
        }
        let session = slot.session.as_mut()?;
        let _turn = match self.run_turn(deadline) {
            Ok(turn) => turn,
            Err(busy) => return Some(busy),
        };
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
        deadline: Instant,
    ) -> Outcome {
        let (lease, stored) = match self.lease(call.key, deadline) {
            Ok(Some(taken)) => taken,
            Ok(None) => return Outcome::Answer(self.busy(call)),
            Err(err) => return Outcome::Answer(unreachable_store(&err)),
        };
        let _renewed = self.held.renewed(call.key, lease);
        // The lease before a turn to run: a call waiting on another
        // replica's holder of its session holds no turn.
        let _turn = match self.run_turn(deadline) {
            Ok(turn) => turn,
            Err(busy) => {
                let _ = self.store.release(call.key, lease);
                return Outcome::Answer(busy);
            }
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
    fn lease(&self, key: &str, deadline: Instant) -> Result<Option<(Lease, Option<u64>)>> {
        loop {
            if let Some(taken) = self.store.lease(key, self.limits.lease)? {
                return Ok(Some(taken));
            }
            if Instant::now() >= deadline {
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
                    shown(call.handle)
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
        slot.session = None;
        slot.version = version;
        // A log this version cannot read, or one gone while its version
        // stayed, starts the session anew: the next save replaces it whole
        // on the version the store holds.
        slot.lines = MAX_LOG_LINES;
        if version > 0 {
            let loaded = self
                .store
                .load(call.key)
                .map_err(|e| unreachable_store(&e))?;
            if let Some(loaded) = loaded {
                slot.version = loaded.version;
                match session.restore_log(&loaded.log) {
                    Ok((_, lines)) => {
                        slot.lines = lines;
                        slot.log_bytes = loaded.log.len();
                        // The measure the log may double against is what
                        // the session holds whole, not the log as found:
                        // that one grew on the replica before, and taking
                        // it as the measure at each move between replicas
                        // would let the log grow without end.
                        slot.whole_bytes = session
                            .save_log()
                            .map_or(loaded.log.len(), |whole| whole.len());
                    }
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
                Some(line) if slot.log_bytes + line.len() > LOG_GROWTH * slot.whole_bytes => {
                    (session.save_log()?, 1, true)
                }
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
            if whole {
                slot.whole_bytes = text.len();
                slot.log_bytes = text.len();
            } else {
                slot.log_bytes += text.len();
            }
        }
        Ok(Some(saved))
    }

    /// Lets sessions idle past the limit, and the least recently used
    /// beyond the count and the budget, leave memory (their stored logs
    /// stay).
    pub fn evict(&self) {
        self.resident.evict(&self.limits);
    }
}

/// The longest handle an answer repeats.
const MAX_SHOWN_HANDLE: usize = 80;

/// `handle` as an answer shows it: cut when long.
pub(super) fn shown(handle: &str) -> String {
    if handle.len() <= MAX_SHOWN_HANDLE {
        return handle.to_owned();
    }
    let mut end = MAX_SHOWN_HANDLE;
    while !handle.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &handle[..end])
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
