//! Sessions kept in this process: for one replica, or tests. Bounded: past
//! [`MAX_BYTES`] of logs the least recently saved sessions go (a call that
//! names one is told it is unknown, and starts anew).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::{
    EndsSeen, Lease, MAX_ENDS_KEPT, Saved, SessionStore, Stored, Turn, Update, lease_token,
};
use crate::serve::lock;

/// The most the logs may hold together.
pub const MAX_BYTES: usize = 256 << 20;

/// Saves between two sweeps of the expired sessions.
const SWEEP_EVERY: u64 = 1000;

/// One session's log, its version, and when it was last saved.
#[derive(Debug)]
struct Entry {
    stored: Stored,
    saved: Instant,
}

/// The stores' maps, behind one lock.
#[derive(Debug, Default)]
struct Maps {
    logs: HashMap<String, Entry>,
    leases: HashMap<String, (Lease, Instant)>,
    /// Bytes of every log.
    bytes: usize,
    saves: u64,
    /// The newest ended handshakes, and how many ended before them.
    ended: VecDeque<String>,
    ended_before: u64,
}

/// A [`SessionStore`] in this process's memory.
#[derive(Debug)]
pub struct MemoryStore {
    maps: Mutex<Maps>,
    ttl: Duration,
}

impl MemoryStore {
    /// An empty store that forgets a session idle for `ttl`.
    pub fn new(ttl: Duration) -> Self {
        Self {
            maps: Mutex::new(Maps::default()),
            ttl,
        }
    }

    fn maps(&self) -> std::sync::MutexGuard<'_, Maps> {
        lock(&self.maps)
    }

    /// Drops the expired sessions, then the least recently saved until the
    /// logs fit [`MAX_BYTES`] (never `keep`, the one just saved).
    fn sweep(&self, maps: &mut Maps, keep: &str) {
        let ttl = self.ttl;
        maps.logs.retain(|_, entry| entry.saved.elapsed() <= ttl);
        maps.leases.retain(|_, (_, until)| *until > Instant::now());
        let mut bytes: usize = maps.logs.values().map(|e| e.stored.log.len()).sum();
        if bytes > MAX_BYTES {
            let mut oldest: Vec<(Instant, String)> = maps
                .logs
                .iter()
                .filter(|(key, _)| key.as_str() != keep)
                .map(|(key, entry)| (entry.saved, key.clone()))
                .collect();
            oldest.sort();
            for (_, key) in oldest {
                if bytes <= MAX_BYTES {
                    break;
                }
                if let Some(entry) = maps.logs.remove(&key) {
                    bytes -= entry.stored.log.len();
                }
            }
        }
        maps.bytes = bytes;
    }

    fn live<'a>(&self, maps: &'a mut Maps, key: &str) -> Option<&'a mut Entry> {
        if maps
            .logs
            .get(key)
            .is_some_and(|entry| entry.saved.elapsed() > self.ttl)
            && let Some(entry) = maps.logs.remove(key)
        {
            maps.bytes = maps.bytes.saturating_sub(entry.stored.log.len());
        }
        maps.logs.get_mut(key)
    }
}

impl SessionStore for MemoryStore {
    fn load(&self, key: &str) -> Result<Option<Stored>> {
        let mut maps = self.maps();
        Ok(self.live(&mut maps, key).map(|entry| entry.stored.clone()))
    }

    fn version(&self, key: &str) -> Result<Option<u64>> {
        let mut maps = self.maps();
        Ok(self.live(&mut maps, key).map(|entry| entry.stored.version))
    }

    fn save(&self, key: &str, expected: u64, update: Update<'_>, turn: Turn) -> Result<Saved> {
        let mut maps = self.maps();
        let leased = maps.leases.get(key).copied();
        match turn {
            Turn::Held(lease) if leased.is_some_and(|(held, _)| held == lease) => {
                maps.leases.remove(key);
            }
            // Without a lease, or with one that ran out: refused while
            // another holds the session.
            _ if leased.is_some_and(|(_, until)| until > Instant::now()) => {
                return Ok(Saved::Moved);
            }
            _ => {}
        }
        let now = self.live(&mut maps, key).map_or(0, |e| e.stored.version);
        if now != expected {
            return Ok(Saved::Moved);
        }
        let entry = maps.logs.entry(key.to_owned()).or_insert_with(|| Entry {
            stored: Stored {
                version: 0,
                log: String::new(),
            },
            saved: Instant::now(),
        });
        let before = entry.stored.log.len();
        match update {
            Update::Append(line) => entry.stored.log.push_str(line),
            Update::Replace(log) => log.clone_into(&mut entry.stored.log),
        }
        entry.stored.version += 1;
        entry.saved = Instant::now();
        let (version, after) = (entry.stored.version, entry.stored.log.len());
        maps.bytes = (maps.bytes + after).saturating_sub(before);
        maps.saves += 1;
        if maps.bytes > MAX_BYTES || maps.saves.is_multiple_of(SWEEP_EVERY) {
            self.sweep(&mut maps, key);
        }
        Ok(Saved::Stored(version))
    }

    fn lease(&self, key: &str, ttl: Duration) -> Result<Option<(Lease, Option<u64>)>> {
        let mut maps = self.maps();
        if maps
            .leases
            .get(key)
            .is_some_and(|(_, until)| *until > Instant::now())
        {
            return Ok(None);
        }
        let lease = lease_token()?;
        maps.leases
            .insert(key.to_owned(), (lease, Instant::now() + ttl));
        let version = self.live(&mut maps, key).map(|e| e.stored.version);
        Ok(Some((lease, version)))
    }

    fn renew(&self, key: &str, lease: Lease, ttl: Duration) -> Result<bool> {
        let mut maps = self.maps();
        match maps.leases.get_mut(key) {
            Some((held, until)) if *held == lease => {
                *until = Instant::now() + ttl;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn release(&self, key: &str, lease: Lease) -> Result<()> {
        let mut maps = self.maps();
        if maps.leases.get(key).is_some_and(|(held, _)| *held == lease) {
            maps.leases.remove(key);
        }
        Ok(())
    }

    fn end_handshake(&self, id: &str) -> Result<()> {
        let mut maps = self.maps();
        maps.ended.push_back(id.to_owned());
        if maps.ended.len() > MAX_ENDS_KEPT {
            maps.ended.pop_front();
            maps.ended_before += 1;
        }
        Ok(())
    }

    fn ended_handshakes(&self, seen: &mut EndsSeen) -> Result<Vec<String>> {
        let maps = self.maps();
        let total = maps.ended_before + maps.ended.len() as u64;
        let from = if seen.looked {
            seen.mark.parse::<u64>().unwrap_or(total)
        } else {
            total
        };
        seen.looked = true;
        seen.mark = total.to_string();
        let skip = usize::try_from(from.saturating_sub(maps.ended_before)).unwrap_or(usize::MAX);
        Ok(maps.ended.iter().skip(skip).cloned().collect())
    }
}
