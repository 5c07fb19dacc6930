//! Every store keeps the same promises: a save names the version it
//! started from, a lease is one holder's at a time, an idle session goes.

use std::time::Duration;

use super::*;

const DAY: Duration = Duration::from_hours(24);

fn promises(store: &dyn SessionStore) {
    let key = format!("ws/{}", crate::serve::handle::mint().unwrap());
    assert_eq!(store.load(&key).unwrap(), None);
    assert_eq!(store.version(&key).unwrap(), None);
    assert_eq!(
        store.save(&key, 1, Update::Append("x\n")).unwrap(),
        Saved::Moved
    );
    assert_eq!(
        store.save(&key, 0, Update::Replace("h\n")).unwrap(),
        Saved::Stored(1)
    );
    assert_eq!(
        store.save(&key, 1, Update::Append("a\n")).unwrap(),
        Saved::Stored(2)
    );
    // A second writer that started from version 1 is refused.
    assert_eq!(
        store.save(&key, 1, Update::Append("b\n")).unwrap(),
        Saved::Moved
    );
    let stored = store.load(&key).unwrap().unwrap();
    assert_eq!((stored.version, stored.log.as_str()), (2, "h\na\n"));
    assert_eq!(store.version(&key).unwrap(), Some(2));
    assert_eq!(
        store.save(&key, 2, Update::Replace("w\n")).unwrap(),
        Saved::Stored(3)
    );
    assert_eq!(store.load(&key).unwrap().unwrap().log, "w\n");

    let lease = store.lease(&key, DAY).unwrap().unwrap();
    assert_eq!(store.lease(&key, DAY).unwrap(), None);
    // Another holder's token does not free it.
    store.release(&key, Lease(lease.0 ^ 1)).unwrap();
    assert_eq!(store.lease(&key, DAY).unwrap(), None);
    store.release(&key, lease).unwrap();
    let short = store
        .lease(&key, Duration::from_millis(20))
        .unwrap()
        .unwrap();
    std::thread::sleep(Duration::from_millis(60));
    // Its holder died: the lease ran out by itself.
    let next = store.lease(&key, DAY).unwrap().unwrap();
    assert_ne!(short, next);
    store.release(&key, next).unwrap();
}

#[test]
fn the_memory_store_keeps_the_promises() {
    promises(&MemoryStore::new(DAY));
}

#[test]
fn the_directory_store_keeps_the_promises() {
    let dir = std::env::temp_dir().join(format!("filetools-store-{}", std::process::id()));
    promises(&DirStore::open(&dir, DAY).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_redis_store_keeps_the_promises() {
    let Some(server) = filetools_tests::redis::RedisServer::start() else {
        // Without redis-server (installed by `cargo xtask setup`) there is
        // nothing to talk to; the service tests say so loudly.
        return;
    };
    promises(&RedisStore::open(&server.url(), DAY).unwrap());
}

#[test]
fn an_idle_session_is_forgotten() {
    let store = MemoryStore::new(Duration::from_millis(20));
    store.save("k", 0, Update::Replace("h\n")).unwrap();
    std::thread::sleep(Duration::from_millis(60));
    assert_eq!(store.load("k").unwrap(), None);
}
