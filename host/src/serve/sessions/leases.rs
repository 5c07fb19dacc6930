//! The leases of the calls running now, renewed by one thread a few times
//! per lease, so a lease outlives a long call but a replica that died
//! holds its sessions up no longer than one lease.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::lock;
use crate::serve::store::{Lease, SessionStore};

/// How many times a lease is renewed within its time to live.
const RENEWALS_PER_LEASE: u32 = 4;

/// The leases held by calls running now, by session key.
#[derive(Debug, Default)]
pub(super) struct Held(Mutex<HashMap<String, Lease>>);

/// A call's lease in [`Held`] until dropped.
pub(super) struct Renewed<'a> {
    held: &'a Held,
    key: &'a str,
}

impl Drop for Renewed<'_> {
    fn drop(&mut self) {
        lock(&self.held.0).remove(self.key);
    }
}

impl Held {
    /// Renews `lease` of `key` until the guard is dropped.
    pub fn renewed<'a>(&'a self, key: &'a str, lease: Lease) -> Renewed<'a> {
        lock(&self.0).insert(key.to_owned(), lease);
        Renewed { held: self, key }
    }
}

/// Renews every lease in `held` a few times per `ttl`, until `held` is
/// gone.
pub(super) fn renew_leases(held: &Arc<Held>, store: Arc<dyn SessionStore>, ttl: Duration) {
    let held = Arc::downgrade(held);
    let every = ttl / RENEWALS_PER_LEASE;
    let renewing = move || {
        loop {
            std::thread::sleep(every);
            let Some(held) = held.upgrade() else {
                return;
            };
            let leases: Vec<(String, Lease)> =
                lock(&held.0).iter().map(|(k, l)| (k.clone(), *l)).collect();
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
