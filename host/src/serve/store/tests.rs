//! Every store keeps the same promises: a save names the version it
//! started from, a lease is one holder's at a time and a save without one
//! waits for no holder, an idle session goes.

use std::time::Duration;

use super::*;

const DAY: Duration = Duration::from_hours(24);

fn saves_compare_and_set(store: &dyn SessionStore, key: &str) {
    assert_eq!(store.load(key).unwrap(), None);
    assert_eq!(store.version(key).unwrap(), None);
    let free = Turn::Free;
    assert_eq!(
        store.save(key, 1, Update::Append("x\n"), free).unwrap(),
        Saved::Moved
    );
    assert_eq!(
        store.save(key, 0, Update::Replace("h\n"), free).unwrap(),
        Saved::Stored(1)
    );
    assert_eq!(
        store.save(key, 1, Update::Append("a\n"), free).unwrap(),
        Saved::Stored(2)
    );
    // A second writer that started from version 1 is refused.
    assert_eq!(
        store.save(key, 1, Update::Append("b\n"), free).unwrap(),
        Saved::Moved
    );
    let stored = store.load(key).unwrap().unwrap();
    assert_eq!((stored.version, stored.log.as_str()), (2, "h\na\n"));
    assert_eq!(store.version(key).unwrap(), Some(2));
    assert_eq!(
        store.save(key, 2, Update::Replace("w\n"), free).unwrap(),
        Saved::Stored(3)
    );
    assert_eq!(store.load(key).unwrap().unwrap().log, "w\n");
}

fn leases_take_turns(store: &dyn SessionStore, key: &str) {
    let (lease, version) = store.lease(key, DAY).unwrap().unwrap();
    assert_eq!(version, Some(3));
    assert_eq!(store.lease(key, DAY).unwrap(), None);
    // A save without the lease waits for no holder: refused while held.
    let free = store
        .save(key, 3, Update::Append("r\n"), Turn::Free)
        .unwrap();
    assert_eq!(free, Saved::Moved);
    // Another holder's token does not free it.
    store.release(key, Lease(lease.0 ^ 1)).unwrap();
    assert_eq!(store.lease(key, DAY).unwrap(), None);
    // A save in the holder's turn gives the lease back.
    let held = store
        .save(key, 3, Update::Append("c\n"), Turn::Held(lease))
        .unwrap();
    assert_eq!(held, Saved::Stored(4));
    let (lease, _) = store.lease(key, DAY).unwrap().unwrap();
    store.release(key, lease).unwrap();
    // A holder that renews keeps it past its first end.
    let (kept, _) = store
        .lease(key, Duration::from_millis(40))
        .unwrap()
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert!(store.renew(key, kept, Duration::from_millis(300)).unwrap());
    std::thread::sleep(Duration::from_millis(40));
    assert_eq!(store.lease(key, DAY).unwrap(), None);
    store.release(key, kept).unwrap();
    let (short, _) = store
        .lease(key, Duration::from_millis(20))
        .unwrap()
        .unwrap();
    std::thread::sleep(Duration::from_millis(60));
    // Its holder died: the lease ran out by itself.
    let (next, _) = store.lease(key, DAY).unwrap().unwrap();
    assert_ne!(short, next);
    assert!(!store.renew(key, short, DAY).unwrap());
    // Moved or not, a held save gives the lease back.
    let moved = store
        .save(key, 1, Update::Append("z\n"), Turn::Held(next))
        .unwrap();
    assert_eq!(moved, Saved::Moved);
    assert!(store.lease(key, DAY).unwrap().is_some());
}

fn every_replica_sees_each_ended_handshake_once(store: &dyn SessionStore) {
    let (mut one, mut two) = (EndsSeen::default(), EndsSeen::default());
    store.end_handshake("before").unwrap();
    // A first look passes over what ended before it.
    assert!(store.ended_handshakes(&mut one).unwrap().is_empty());
    assert!(store.ended_handshakes(&mut two).unwrap().is_empty());
    store.end_handshake("a-1").unwrap();
    store.end_handshake("b-2").unwrap();
    let mut seen = store.ended_handshakes(&mut one).unwrap();
    seen.sort();
    assert_eq!(seen, ["a-1", "b-2"]);
    assert!(store.ended_handshakes(&mut one).unwrap().is_empty());
    store.end_handshake("c-3").unwrap();
    let mut seen = store.ended_handshakes(&mut two).unwrap();
    seen.sort();
    assert_eq!(seen, ["a-1", "b-2", "c-3"]);
    assert_eq!(store.ended_handshakes(&mut one).unwrap(), ["c-3"]);
}

fn promises(store: &dyn SessionStore) {
    let key = format!("ws/{}", crate::serve::session_handle::mint().unwrap());
    saves_compare_and_set(store, &key);
    leases_take_turns(store, &key);
    every_replica_sees_each_ended_handshake_once(store);
}

#[test]
fn the_memory_store_keeps_the_promises() {
    promises(&MemoryStore::new(DAY));
}

#[test]
fn the_directory_store_keeps_the_promises() {
    let dir = std::env::temp_dir().join(format!("filetools-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    promises(&DirStore::open(&dir, DAY).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_redis_store_keeps_the_promises() {
    let Some(mut server) = filetools_tests::redis::RedisServer::start() else {
        // Without redis-server (installed by `cargo xtask setup`, and
        // required by `cargo xtask test`) there is nothing to talk to.
        return;
    };
    let store = RedisStore::open(&server.url(), DAY, Durability::default()).unwrap();
    promises(&store);
    // A server that lost its scripts (restarted, flushed) gets them again.
    let address = server.url().replace("redis://", "");
    let mut raw = resp::Connection::open(&address).unwrap();
    raw.command(&[b"SCRIPT", b"FLUSH"]).unwrap();
    promises(&store);
    // A restarted server (its pooled connections dead) answers at once.
    server.restart();
    assert_eq!(store.load("ws/gone").unwrap(), None);
    promises(&store);
}

#[test]
fn the_directory_store_names_long_keys_by_digest_and_leaves_no_lock_for_lookups() {
    let dir = std::env::temp_dir().join(format!("filetools-store-long-{}", std::process::id()));
    let store = DirStore::open(&dir, DAY).unwrap();
    let long = format!("ws/mcp-{}", "a".repeat(500));
    assert_eq!(store.load(&long).unwrap(), None);
    assert_eq!(store.version("ws/never").unwrap(), None);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "a lookup left files"
    );
    assert_eq!(
        store
            .save(&long, 0, Update::Replace("h\n"), Turn::Free)
            .unwrap(),
        Saved::Stored(1)
    );
    assert_eq!(store.load(&long).unwrap().unwrap().log, "h\n");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_idle_session_is_forgotten() {
    let store = MemoryStore::new(Duration::from_millis(20));
    store
        .save("k", 0, Update::Replace("h\n"), Turn::Free)
        .unwrap();
    std::thread::sleep(Duration::from_millis(60));
    assert_eq!(store.load("k").unwrap(), None);
}
