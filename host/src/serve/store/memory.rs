//! Sessions kept in this process: for one replica, or tests.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::{Lease, Saved, SessionStore, Stored, Turn, Update, lease_token};

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
        self.maps
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn live<'a>(&self, maps: &'a mut Maps, key: &str) -> Option<&'a mut Entry> {
        if maps
            .logs
            .get(key)
            .is_some_and(|entry| entry.saved.elapsed() > self.ttl)
        {
            maps.logs.remove(key);
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
            Turn::Free if leased.is_some_and(|(_, until)| until > Instant::now()) => {
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
        match update {
            Update::Append(line) => entry.stored.log.push_str(line),
            Update::Replace(log) => log.clone_into(&mut entry.stored.log),
        }
        entry.stored.version += 1;
        entry.saved = Instant::now();
        Ok(Saved::Stored(entry.stored.version))
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
}
