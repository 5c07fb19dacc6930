//! Sessions in a Redis server (or anything that speaks its protocol, e.g.
//! Valkey), shared by every replica: a session's log and version are two
//! keys changed together by one server-side script, so a save is a
//! compare-and-set; a lease is a key set only when absent, with an expiry.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};

use super::resp::{self, Connection, Reply};
use super::{Lease, Saved, SessionStore, Stored, Turn, Update, lease_token};
use crate::serve::lock;

/// What every key of the store starts with.
const KEY_PREFIX: &str = "filetools:";

/// Connections kept open between commands.
const MAX_IDLE_CONNECTIONS: usize = 16;

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

/// A [`SessionStore`] in a Redis server.
#[derive(Debug)]
pub struct RedisStore {
    address: String,
    user: Option<String>,
    password: Option<String>,
    db: Option<String>,
    idle: Mutex<Vec<Connection>>,
    /// The scripts' SHA-1s, as the server gave them.
    shas: Mutex<HashMap<&'static str, String>>,
    ttl: Duration,
}

impl RedisStore {
    /// The store at `url` (`redis://[:PASSWORD@]HOST[:PORT][/DB]`), whose
    /// sessions expire when idle for `ttl`; connects once to check.
    pub fn open(url: &str, ttl: Duration) -> Result<Self> {
        let rest = url
            .split_once("://")
            .map(|(_, rest)| rest)
            .context("a Redis URL starts with redis://")?;
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
        let address = if host
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        {
            host.to_owned()
        } else {
            format!("{host}:6379")
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
            address,
            user,
            password,
            db,
            idle: Mutex::new(Vec::new()),
            shas: Mutex::new(HashMap::new()),
            ttl,
        };
        store.with(|c| c.command(&[b"PING"]).map(drop))?;
        Ok(store)
    }

    /// Runs `work` on an idle connection (or a new one), which goes back
    /// to the pool unless the work failed. A pooled connection that fails
    /// (the server restarted since) empties the pool, and the work runs
    /// once more on a new one; a save that did land the first time is then
    /// refused by its compare-and-set, never applied twice.
    fn with<T>(&self, work: impl Fn(&mut Connection) -> Result<T>) -> Result<T> {
        let pooled = lock(&self.idle).pop();
        let fresh =
            |work: &dyn Fn(&mut Connection) -> Result<T>| -> Result<(Connection, Result<T>)> {
                let mut connection = self.connect()?;
                let result = work(&mut connection);
                Ok((connection, result))
            };
        let (connection, result) = if let Some(mut connection) = pooled {
            match work(&mut connection) {
                Err(err) if !refused(&err) => {
                    lock(&self.idle).clear();
                    fresh(&work)?
                }
                done => (connection, done),
            }
        } else {
            fresh(&work)?
        };
        let result = match result {
            Err(err) if refused(&err) => {
                // The connection is sound; the server said no.
                self.give_back(connection);
                return Err(err);
            }
            other => other?,
        };
        self.give_back(connection);
        Ok(result)
    }

    /// Keeps `connection` for the next command, unless enough are kept.
    fn give_back(&self, connection: Connection) {
        let mut idle = lock(&self.idle);
        if idle.len() < MAX_IDLE_CONNECTIONS {
            idle.push(connection);
        }
    }

    /// Runs `script` on `keys` and `args`: by its SHA-1 once the server
    /// has it (loaded at first use, and again after the server lost it),
    /// so the script is not sent and hashed at every call.
    fn eval(&self, script: &'static str, keys: &[&str], args: &[&str]) -> Result<Reply> {
        let known = lock(&self.shas).get(script).cloned();
        let count = keys.len().to_string();
        self.with(|c| {
            let run = |c: &mut Connection, sha: &str| {
                let mut command: Vec<&[u8]> = vec![b"EVALSHA", sha.as_bytes(), count.as_bytes()];
                command.extend(keys.iter().chain(args).map(|a| a.as_bytes()));
                c.command(&command)
            };
            if let Some(sha) = &known {
                match run(c, sha) {
                    Err(err) if err.to_string().contains("NOSCRIPT") => {}
                    done => return done,
                }
            }
            let Reply::Bulk(Some(sha)) = c.command(&[b"SCRIPT", b"LOAD", script.as_bytes()])?
            else {
                bail!("Redis gave no SHA-1 for a script");
            };
            let sha = String::from_utf8(sha).context("a script's SHA-1 is not text")?;
            lock(&self.shas).insert(script, sha.clone());
            run(c, &sha)
        })
    }

    fn connect(&self) -> Result<Connection> {
        let mut connection = Connection::open(&self.address)?;
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

    fn key(kind: &str, key: &str) -> String {
        format!("{KEY_PREFIX}{kind}:{key}")
    }

    fn ttl_ms(&self) -> String {
        self.ttl.as_millis().max(1).to_string()
    }
}

/// Whether `err` is the server's refusal (an error reply), not a broken
/// connection.
fn refused(err: &anyhow::Error) -> bool {
    err.downcast_ref::<resp::Refused>().is_some()
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
        let reply = self.with(|c| c.command(&[b"MGET", version.as_bytes(), log.as_bytes()]))?;
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
        number(&self.with(|c| c.command(&[b"GET", version.as_bytes()]))?)
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
        let reply = self.eval(LEASE_SCRIPT, &[&name, &version], &[&token, &ms])?;
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
        let reply = self.eval(RENEW_SCRIPT, &[&name], &[&token, &ms])?;
        Ok(reply == Reply::Int(1))
    }

    fn release(&self, key: &str, lease: Lease) -> Result<()> {
        let (name, token) = (Self::key("lease", key), lease.0.to_string());
        self.eval(RELEASE_SCRIPT, &[&name], &[&token])?;
        Ok(())
    }
}
