//! Where `filetools serve` keeps each session's memory between calls, so
//! that any replica can take a session's next call and a replica that
//! stops loses nothing saved: behind one small trait, [`SessionStore`],
//! with three stores — in this process ([`MemoryStore`]), files in a
//! directory ([`DirStore`]) and a Redis server or Redis Cluster
//! ([`RedisStore`], anything that speaks its protocol, e.g. Valkey).
//!
//! A session's memory is kept as a state log (see
//! [`crate::Session::save_log`]): a save after a call appends one line
//! with what the call changed, and now and then the log is written whole.
//! Every stored log has a version that each save moves on by one; a save
//! names the version it started from and is refused when another save came
//! first ([`Saved::Moved`]): a compare-and-set, never last-write-wins.
//! Calls on one session take turns across replicas through a lease
//! ([`SessionStore::lease`]) that ends by itself when its holder dies.

use std::collections::HashSet;
use std::fmt::Debug;
use std::time::Duration;

use anyhow::Result;

mod cluster;
mod dir;
mod memory;
mod redis;
mod resp;

pub use dir::DirStore;
pub use memory::MemoryStore;
pub use redis::{Durability, NotReplicated, RedisStore};

/// A session's stored log and its version (the number of saves so far).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The version: 1 after the first save.
    pub version: u64,
    /// The state log.
    pub log: String,
}

/// What a save does to the stored log.
#[derive(Debug, Clone, Copy)]
pub enum Update<'a> {
    /// Appends a line.
    Append(&'a str),
    /// Replaces the log with a whole one.
    Replace(&'a str),
}

/// Whose turn a save is taken in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Under this lease, given back with the save (stored or not); a lease
    /// that ran out saves only while nobody else holds one.
    Held(Lease),
    /// Without one: refused while anyone holds the session's lease, so a
    /// read saved this way never overtakes a change under way.
    Free,
}

/// How a save went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    /// Stored: the log's new version.
    Stored(u64),
    /// Refused, nothing stored: the version is no longer the one the save
    /// started from, the session expired, or (a [`Turn::Free`] save) a
    /// lease is held.
    Moved,
}

/// A lease held on one session's calls; give it back with
/// [`SessionStore::release`] or a [`Turn::Held`] save.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease(pub u64);

/// Ended handshakes a store keeps for the replicas to see: the newest this
/// many (Redis, this process).
pub const MAX_ENDS_KEPT: usize = 10_000;

/// How long a directory store keeps an ended handshake for the replicas to
/// see: past a replica's look (every second) and the idle time after which
/// a replica lets a handshake go anyway (5 minutes).
pub const ENDS_KEPT_FOR: Duration = Duration::from_mins(10);

/// What one replica has seen of the handshakes that clients ended (see
/// [`SessionStore::ended_handshakes`]); each store uses what it needs.
#[derive(Debug, Default)]
pub struct EndsSeen {
    /// Whether the record was looked at once: the ends before that are
    /// passed over.
    looked: bool,
    /// Where the last look stopped: a Redis stream id, a count.
    mark: String,
    /// The ends seen, by name, while they are kept (a directory store).
    names: HashSet<String>,
}

/// A store of session logs, shared by every replica that serves them.
/// Every method may block on I/O; a session unknown to the store (never
/// saved, or idle past the store's time to live) is `None`.
pub trait SessionStore: Send + Sync + Debug {
    /// The session's log and version.
    fn load(&self, key: &str) -> Result<Option<Stored>>;

    /// The session's version alone: whether a copy in memory is current.
    fn version(&self, key: &str) -> Result<Option<u64>>;

    /// Applies `update` when the stored version is `expected` (0: no log
    /// yet), in `turn`.
    fn save(&self, key: &str, expected: u64, update: Update<'_>, turn: Turn) -> Result<Saved>;

    /// Takes the session's lease for `ttl` unless another holder has it,
    /// and gives the stored version with it.
    fn lease(&self, key: &str, ttl: Duration) -> Result<Option<(Lease, Option<u64>)>>;

    /// Gives the lease back (nothing when it already ran out and another
    /// took it).
    fn release(&self, key: &str, lease: Lease) -> Result<()>;

    /// Makes a held lease last `ttl` from now; `false` when it is no
    /// longer held (it ran out and another took it).
    fn renew(&self, key: &str, lease: Lease, ttl: Duration) -> Result<bool>;

    /// Records that a client ended its MCP handshake `id` (a `DELETE`), for
    /// every replica to let go of it.
    fn end_handshake(&self, id: &str) -> Result<()>;

    /// The handshakes ended since `seen` last looked. The first look gives
    /// none: it notes where the record stands.
    fn ended_handshakes(&self, seen: &mut EndsSeen) -> Result<Vec<String>>;
}

/// Opens the store a `--store` value names: `memory`, `dir:PATH`,
/// `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` or
/// `redis-cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT...]`; sessions
/// idle for `ttl` are forgotten, and a Redis save reaches replicas as
/// `durability` asks.
pub fn open(spec: &str, ttl: Duration, durability: Durability) -> Result<Box<dyn SessionStore>> {
    if spec == "memory" {
        return Ok(Box::new(MemoryStore::new(ttl)));
    }
    if let Some(path) = spec.strip_prefix("dir:") {
        return Ok(Box::new(DirStore::open(path, ttl)?));
    }
    let redis = [
        "redis://",
        "valkey://",
        "redis-cluster://",
        "valkey-cluster://",
    ];
    if redis.iter().any(|scheme| spec.starts_with(scheme)) {
        return Ok(Box::new(RedisStore::open(spec, ttl, durability)?));
    }
    anyhow::bail!(
        "--store {spec:?} is not a store: give `memory`, `dir:PATH`, `redis://HOST:PORT` or `redis-cluster://HOST:PORT,HOST:PORT`"
    )
}

/// A fresh lease token: unguessable, so one holder cannot release
/// another's lease.
fn lease_token() -> Result<Lease> {
    let bytes = super::session_handle::random_bytes::<8>()?;
    Ok(Lease(u64::from_le_bytes(bytes)))
}

#[cfg(test)]
mod tests;
