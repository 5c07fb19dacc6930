//! Sessions in a Redis server (or anything that speaks its protocol, e.g.
//! Valkey), or in a Redis Cluster, shared by every replica: a session's
//! log and version are two keys changed together by one server-side
//! script, so a save is a compare-and-set; a lease is a key set only when
//! absent, with an expiry. Every key of a session carries it as a hash
//! tag, so in a cluster they share one slot and each script runs on the
//! one primary that serves it (see [`super::cluster`]). With `wait`, a
//! save is answered only once that many replicas have it (`WAIT`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};

use super::cluster::{self, Redirect, SlotMap};
use super::resp::{self, Connection, Reply};
use super::{
    EndsSeen, Lease, MAX_ENDS_KEPT, Saved, SessionStore, Stored, Turn, Update, lease_token,
};
use crate::serve::lock;

/// What every key of the store starts with.
const KEY_PREFIX: &str = "filetools:";

/// The stream of handshakes clients ended, which every replica reads.
const ENDS_KEY: &str = "filetools:ended";

/// Ended handshakes taken from the stream per command.
const ENDS_PER_READ: usize = 1000;

/// Connections kept open between commands, per node.
const MAX_IDLE_CONNECTIONS: usize = 16;

/// How long a command on a cluster keeps following redirections and
/// waiting out a failover before it fails.
const CLUSTER_WAIT: Duration = Duration::from_secs(20);

/// The pause before asking a cluster again while it cannot serve a slot.
const CLUSTER_RETRY_PAUSE: Duration = Duration::from_millis(100);

/// Saves the log when its version is the one expected, in the caller's
/// turn: KEYS = version, log, lease, last save's id; ARGV = expected, `a`
/// (append) or `r` (replace), text, time to live in ms, the lease's token
/// (given back whatever happens) or `f` (no lease), and the save's id.
/// Refused while a lease other than the caller's is held. A save sent
/// again (its reply lost) finds its id and gives the version it made.
/// Gives the new version, or -1.
const SAVE_SCRIPT: &str = "if redis.call('GET', KEYS[4]) == ARGV[6] then \
    return tonumber(redis.call('GET', KEYS[1])) end \
    local holder = redis.call('GET', KEYS[3]) \
    local saved = -1 \
    if holder == false or holder == ARGV[5] then \
    local v = tonumber(redis.call('GET', KEYS[1]) or '0') \
    if v == tonumber(ARGV[1]) then \
    if ARGV[2] == 'a' then redis.call('APPEND', KEYS[2], ARGV[3]) \
    else redis.call('SET', KEYS[2], ARGV[3]) end \
    saved = v + 1 \
    redis.call('SET', KEYS[1], saved, 'PX', ARGV[4]) \
    redis.call('PEXPIRE', KEYS[2], ARGV[4]) \
    redis.call('SET', KEYS[4], ARGV[6], 'PX', ARGV[4]) end end \
    if holder == ARGV[5] then redis.call('DEL', KEYS[3]) end \
    return saved";

/// Takes the lease when free (or already the caller's: a lease sent again
/// after its reply was lost) and gives the version: KEYS = lease,
/// version; ARGV = token, time in ms. Gives `{1, version}` or `{0}`.
const LEASE_SCRIPT: &str = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) \
    or redis.call('GET', KEYS[1]) == ARGV[1] then \
    return {1, redis.call('GET', KEYS[2])} end return {0}";

/// Extends the lease when it is still the caller's: KEYS = lease; ARGV =
/// token, time in ms. Gives 1, or 0 when another holds it or none.
const RENEW_SCRIPT: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
    return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

/// Deletes the lease when it is still the caller's: KEYS = lease; ARGV =
/// token.
const RELEASE_SCRIPT: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
    return redis.call('DEL', KEYS[1]) end return 0";

/// How many replicas a save must reach before it is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Durability {
    /// Replicas that must have the save (`WAIT`); 0 answers once the
    /// primary has it.
    pub replicas: u32,
    /// How long a save waits for them before it fails.
    pub timeout: Duration,
}

impl Default for Durability {
    fn default() -> Self {
        Self {
            replicas: 0,
            timeout: Duration::from_secs(1),
        }
    }
}

/// The save reached fewer replicas than asked within the wait.
#[derive(Debug)]
pub struct NotReplicated {
    reached: i64,
    asked: u32,
    timeout: Duration,
}

impl std::fmt::Display for NotReplicated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the save reached {} of the {} Redis replicas asked for within {} ms, so a failover could lose it",
            self.reached,
            self.asked,
            self.timeout.as_millis()
        )
    }
}

impl std::error::Error for NotReplicated {}

/// Where commands go: one server, or the primary of a key's slot.
#[derive(Debug)]
enum Route {
    /// One server at this address.
    Single(String),
    /// A cluster, by its map of slots.
    Cluster(SlotMap),
}

/// A [`SessionStore`] in a Redis server or a Redis Cluster.
#[derive(Debug)]
pub struct RedisStore {
    route: Route,
    user: Option<String>,
    password: Option<String>,
    db: Option<String>,
    /// Idle connections, by node address.
    idle: Mutex<HashMap<String, Vec<Connection>>>,
    /// The scripts' SHA-1s, as the server gave them.
    shas: Mutex<HashMap<&'static str, String>>,
    ttl: Duration,
    durability: Durability,
}

impl RedisStore {
    /// The store at `url` — `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`,
    /// or `redis-cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT...]`
    /// naming some nodes of a cluster — whose sessions expire when idle
    /// for `ttl`, and whose saves reach replicas as `durability` asks;
    /// connects once to check.
    pub fn open(url: &str, ttl: Duration, durability: Durability) -> Result<Self> {
        let (scheme, rest) = url
            .split_once("://")
            .context("a Redis URL starts with redis:// or redis-cluster://")?;
        let clustered = scheme == "redis-cluster" || scheme == "valkey-cluster";
        let (auth, rest) = match rest.rsplit_once('@') {
            Some((auth, rest)) => (Some(auth), rest),
            None => (None, rest),
        };
        let (host, db) = match rest.split_once('/') {
            Some((host, db)) if !db.is_empty() => (host, Some(db.to_owned())),
            Some((host, _)) => (host, None),
            None => (rest, None),
        };
        if host.is_empty() {
            bail!("the Redis URL {url:?} names no host");
        }
        let address = |host: &str| {
            if host
                .rsplit_once(':')
                .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
            {
                host.to_owned()
            } else {
                format!("{host}:6379")
            }
        };
        let route = if clustered {
            if db.is_some() {
                bail!(
                    "a Redis Cluster has one database: drop /{} from {url:?}",
                    db.unwrap_or_default()
                );
            }
            Route::Cluster(SlotMap::new(host.split(',').map(address).collect()))
        } else {
            Route::Single(address(host))
        };
        // `:PASSWORD`, or `USER:PASSWORD` for an ACL user.
        let (user, password) = match auth.map(|auth| auth.split_once(':')) {
            Some(Some((user, password))) => (
                (!user.is_empty()).then(|| user.to_owned()),
                Some(password.to_owned()),
            ),
            Some(None) => (None, auth.map(str::to_owned)),
            None => (None, None),
        };
        let store = Self {
            route,
            user,
            password,
            db,
            idle: Mutex::new(HashMap::new()),
            shas: Mutex::new(HashMap::new()),
            ttl,
            durability,
        };
        match &store.route {
            Route::Single(address) => {
                store.with_at(address, &|c| c.command(&[b"PING"]).map(drop))?;
            }
            Route::Cluster(map) => map
                .refresh(|address| store.connect(address))
                .context("reading the Redis Cluster's slots")?,
        }
        Ok(store)
    }

    /// Runs `work` on the node that serves `key`: the server, or the
    /// primary of the key's slot in a cluster, following its redirections
    /// and waiting out a failover for up to [`CLUSTER_WAIT`].
    fn with<T>(&self, key: &str, work: impl Fn(&mut Connection) -> Result<T>) -> Result<T> {
        let map = match &self.route {
            Route::Single(address) => return self.with_at(address, &work),
            Route::Cluster(map) => map,
        };
        let slot = cluster::slot(key);
        let deadline = Instant::now() + CLUSTER_WAIT;
        let mut ask: Option<String> = None;
        loop {
            let asking = ask.take();
            let result = match (&asking, map.primary(slot)) {
                (Some(address), _) => self.with_at(address, &|c| {
                    c.command(&[b"ASKING"])?;
                    work(c)
                }),
                (None, Some(address)) => self.with_at(&address, &work),
                (None, None) => Err(anyhow::anyhow!(
                    "no node of the Redis Cluster serves slot {slot}"
                )),
            };
            let err = match result {
                Ok(done) => return Ok(done),
                Err(err) if err.downcast_ref::<NotReplicated>().is_some() => return Err(err),
                Err(err) => err,
            };
            let redirect = err
                .downcast_ref::<resp::Refused>()
                .map(|refused| cluster::redirect(&refused.0));
            match redirect {
                Some(Some(Redirect::Ask(address))) => {
                    ask = Some(address);
                    continue;
                }
                // The server refused for its own reasons (a bad command).
                Some(None) => return Err(err),
                // Moved, a failover under way, or a node that does not
                // answer: the map is looked at again.
                Some(Some(Redirect::Moved(_) | Redirect::Wait)) | None => {}
            }
            if Instant::now() >= deadline {
                return Err(err.context(format!(
                    "the Redis Cluster did not serve slot {slot} within {} s",
                    CLUSTER_WAIT.as_secs()
                )));
            }
            if !matches!(redirect, Some(Some(Redirect::Moved(_)))) {
                std::thread::sleep(CLUSTER_RETRY_PAUSE);
            }
            // A node that is down fails the refresh too; the next turn
            // asks again.
            let _ = map.refresh(|address| self.connect(address));
        }
    }

    /// Runs `work` on an idle connection to `address` (or a new one),
    /// which goes back to the pool unless the work failed. A pooled
    /// connection that fails (the server restarted since) empties the
    /// node's pool, and the work runs once more on a new one; a save that
    /// did land the first time is then refused by its compare-and-set, or
    /// found by its id, never applied twice.
    fn with_at<T>(&self, address: &str, work: &dyn Fn(&mut Connection) -> Result<T>) -> Result<T> {
        let pooled = lock(&self.idle).get_mut(address).and_then(Vec::pop);
        let fresh = || -> Result<(Connection, Result<T>)> {
            let mut connection = self.connect(address)?;
            let result = work(&mut connection);
            Ok((connection, result))
        };
        let (connection, result) = if let Some(mut connection) = pooled {
            match work(&mut connection) {
                Err(err) if !refused(&err) => {
                    lock(&self.idle).remove(address);
                    fresh()?
                }
                done => (connection, done),
            }
        } else {
            fresh()?
        };
        let result = match result {
            Err(err) if refused(&err) => {
                // The connection is sound; the server said no.
                self.give_back(address, connection);
                return Err(err);
            }
            other => other?,
        };
        self.give_back(address, connection);
        Ok(result)
    }

    /// Keeps `connection` to `address` for the next command, unless enough
    /// are kept.
    fn give_back(&self, address: &str, connection: Connection) {
        let mut idle = lock(&self.idle);
        let pool = idle.entry(address.to_owned()).or_default();
        if pool.len() < MAX_IDLE_CONNECTIONS {
            pool.push(connection);
        }
    }

    /// Runs `script` on `keys` (all of one session) and `args`: by its
    /// SHA-1 once the server has it (loaded at first use, and again after
    /// the server lost it), so the script is not sent and hashed at every
    /// call. With `durable`, a reply that stored something (not -1) is
    /// given only once the replicas the store asks for have it.
    fn eval(
        &self,
        script: &'static str,
        keys: &[&str],
        args: &[&str],
        durable: bool,
    ) -> Result<Reply> {
        let known = lock(&self.shas).get(script).cloned();
        let count = keys.len().to_string();
        let waited = |c: &mut Connection, reply: Reply| -> Result<Reply> {
            let Durability { replicas, timeout } = self.durability;
            if !durable || replicas == 0 || reply == Reply::Int(-1) {
                return Ok(reply);
            }
            let (asked, ms) = (replicas.to_string(), timeout.as_millis().max(1).to_string());
            match c.command(&[b"WAIT", asked.as_bytes(), ms.as_bytes()])? {
                Reply::Int(reached) if reached >= i64::from(replicas) => Ok(reply),
                Reply::Int(reached) => Err(NotReplicated {
                    reached,
                    asked: replicas,
                    timeout,
                }
                .into()),
                other => bail!("Redis answered {other:?} to WAIT"),
            }
        };
        self.with(keys[0], |c| {
            let run = |c: &mut Connection, sha: &str| {
                let mut command: Vec<&[u8]> = vec![b"EVALSHA", sha.as_bytes(), count.as_bytes()];
                command.extend(keys.iter().chain(args).map(|a| a.as_bytes()));
                c.command(&command)
            };
            if let Some(sha) = &known {
                match run(c, sha) {
                    Err(err) if err.to_string().contains("NOSCRIPT") => {}
                    done => return waited(c, done?),
                }
            }
            let Reply::Bulk(Some(sha)) = c.command(&[b"SCRIPT", b"LOAD", script.as_bytes()])?
            else {
                bail!("Redis gave no SHA-1 for a script");
            };
            let sha = String::from_utf8(sha).context("a script's SHA-1 is not text")?;
            lock(&self.shas).insert(script, sha.clone());
            let reply = run(c, &sha)?;
            waited(c, reply)
        })
    }

    fn connect(&self, address: &str) -> Result<Connection> {
        let mut connection = Connection::open(address)?;
        match (&self.user, &self.password) {
            (Some(user), Some(password)) => {
                connection.command(&[b"AUTH", user.as_bytes(), password.as_bytes()])?;
            }
            (None, Some(password)) => {
                connection.command(&[b"AUTH", password.as_bytes()])?;
            }
            _ => {}
        }
        if let Some(db) = &self.db {
            connection.command(&[b"SELECT", db.as_bytes()])?;
        }
        Ok(connection)
    }

    /// The key of `kind` for the session `key`, which is its hash tag:
    /// every key of a session is in one cluster slot.
    fn key(kind: &str, key: &str) -> String {
        format!("{KEY_PREFIX}{kind}:{{{key}}}")
    }

    fn ttl_ms(&self) -> String {
        self.ttl.as_millis().max(1).to_string()
    }
}

/// Whether `err` is the server's refusal (an error reply, or too few
/// replicas), not a broken connection.
fn refused(err: &anyhow::Error) -> bool {
    err.downcast_ref::<resp::Refused>().is_some() || err.downcast_ref::<NotReplicated>().is_some()
}

/// The entries of a stream reply (`XRANGE`): each one's id and its `id`
/// field.
fn stream_entries(reply: Reply) -> Result<Vec<(String, String)>> {
    let text = |reply: &Reply| match reply {
        Reply::Bulk(Some(data)) => String::from_utf8(data.clone()).ok(),
        _ => None,
    };
    let Reply::Array(Some(entries)) = reply else {
        bail!("Redis answered {reply:?} for a stream's entries");
    };
    entries
        .iter()
        .map(|entry| {
            let Reply::Array(Some(parts)) = entry else {
                bail!("Redis answered {entry:?} for a stream entry");
            };
            let fields = match parts.get(1) {
                Some(Reply::Array(Some(fields))) => fields.as_slice(),
                _ => &[],
            };
            let id = parts.first().and_then(text);
            let value = fields.get(1).and_then(text);
            id.zip(value)
                .with_context(|| format!("Redis answered {entry:?} for a stream entry"))
        })
        .collect()
}

/// A bulk reply as a number.
fn number(reply: &Reply) -> Result<Option<u64>> {
    match reply {
        Reply::Bulk(None) => Ok(None),
        Reply::Bulk(Some(data)) => Ok(Some(
            std::str::from_utf8(data)
                .ok()
                .and_then(|text| text.parse().ok())
                .context("a session's version in Redis is not a number")?,
        )),
        other => bail!("Redis answered {other:?} for a version"),
    }
}

impl SessionStore for RedisStore {
    fn load(&self, key: &str) -> Result<Option<Stored>> {
        let (version, log) = (Self::key("v", key), Self::key("log", key));
        let reply = self.with(&version, |c| {
            c.command(&[b"MGET", version.as_bytes(), log.as_bytes()])
        })?;
        let Reply::Array(Some(items)) = reply else {
            bail!("Redis answered {reply:?} to MGET");
        };
        match (
            items.first().map(number).transpose()?.flatten(),
            items.get(1),
        ) {
            (Some(version), Some(Reply::Bulk(Some(log)))) => Ok(Some(Stored {
                version,
                log: String::from_utf8(log.clone()).context("a session's log is not UTF-8")?,
            })),
            _ => Ok(None),
        }
    }

    fn version(&self, key: &str) -> Result<Option<u64>> {
        let version = Self::key("v", key);
        number(&self.with(&version, |c| c.command(&[b"GET", version.as_bytes()]))?)
    }

    fn save(&self, key: &str, expected: u64, update: Update<'_>, turn: Turn) -> Result<Saved> {
        let keys = [
            Self::key("v", key),
            Self::key("log", key),
            Self::key("lease", key),
            Self::key("saved", key),
        ];
        // Sent again after a lost reply, the save finds its id.
        let id = lease_token()?.0.to_string();
        let (how, text) = match update {
            Update::Append(text) => ("a", text),
            Update::Replace(text) => ("r", text),
        };
        let token = match turn {
            Turn::Held(lease) => lease.0.to_string(),
            Turn::Free => "f".to_owned(),
        };
        let (expected, ttl) = (expected.to_string(), self.ttl_ms());
        let reply = self.eval(
            SAVE_SCRIPT,
            &[&keys[0], &keys[1], &keys[2], &keys[3]],
            &[&expected, how, text, &ttl, &token, &id],
            true,
        )?;
        match reply {
            Reply::Int(-1) => Ok(Saved::Moved),
            Reply::Int(version) => Ok(Saved::Stored(
                u64::try_from(version).context("a negative version")?,
            )),
            other => bail!("Redis answered {other:?} to a save"),
        }
    }

    fn lease(&self, key: &str, ttl: Duration) -> Result<Option<(Lease, Option<u64>)>> {
        let lease = lease_token()?;
        let (name, version, token) = (
            Self::key("lease", key),
            Self::key("v", key),
            lease.0.to_string(),
        );
        let ms = ttl.as_millis().max(1).to_string();
        let reply = self.eval(LEASE_SCRIPT, &[&name, &version], &[&token, &ms], false)?;
        match reply {
            Reply::Array(Some(items)) if items.first() == Some(&Reply::Int(1)) => {
                let version = items.get(1).map(number).transpose()?.flatten();
                Ok(Some((lease, version)))
            }
            Reply::Array(Some(_)) => Ok(None),
            other => bail!("Redis answered {other:?} to a lease"),
        }
    }

    fn renew(&self, key: &str, lease: Lease, ttl: Duration) -> Result<bool> {
        let (name, token) = (Self::key("lease", key), lease.0.to_string());
        let ms = ttl.as_millis().max(1).to_string();
        let reply = self.eval(RENEW_SCRIPT, &[&name], &[&token, &ms], false)?;
        Ok(reply == Reply::Int(1))
    }

    fn release(&self, key: &str, lease: Lease) -> Result<()> {
        let (name, token) = (Self::key("lease", key), lease.0.to_string());
        self.eval(RELEASE_SCRIPT, &[&name], &[&token], false)?;
        Ok(())
    }

    fn end_handshake(&self, id: &str) -> Result<()> {
        let kept = MAX_ENDS_KEPT.to_string();
        self.with(ENDS_KEY, |c| {
            let command: [&[u8]; 8] = [
                b"XADD",
                ENDS_KEY.as_bytes(),
                b"MAXLEN",
                b"~",
                kept.as_bytes(),
                b"*",
                b"id",
                id.as_bytes(),
            ];
            c.command(&command).map(drop)
        })
    }

    fn ended_handshakes(&self, seen: &mut EndsSeen) -> Result<Vec<String>> {
        if !seen.looked {
            let newest = self.with(ENDS_KEY, |c| {
                stream_entries(c.command(&[
                    b"XREVRANGE",
                    ENDS_KEY.as_bytes(),
                    b"+",
                    b"-",
                    b"COUNT",
                    b"1",
                ])?)
            })?;
            seen.mark = newest
                .into_iter()
                .next()
                .map_or_else(|| "0-0".to_owned(), |(id, _)| id);
            seen.looked = true;
            return Ok(Vec::new());
        }
        let count = ENDS_PER_READ.to_string();
        let mut ended = Vec::new();
        loop {
            let from = format!("({}", seen.mark);
            let entries = self.with(ENDS_KEY, |c| {
                stream_entries(c.command(&[
                    b"XRANGE",
                    ENDS_KEY.as_bytes(),
                    from.as_bytes(),
                    b"+",
                    b"COUNT",
                    count.as_bytes(),
                ])?)
            })?;
            let whole = entries.len() < ENDS_PER_READ;
            for (id, session) in entries {
                seen.mark = id;
                ended.push(session);
            }
            if whole {
                return Ok(ended);
            }
        }
    }
}
