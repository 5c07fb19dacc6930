//! What a Redis Cluster needs beyond one server: the hash slot of a key
//! (every key of one session carries the session in braces, a hash tag,
//! so all of them, and every script on them, live in one slot), the map
//! of slots to the primaries that serve them (`CLUSTER SLOTS`), and the
//! redirections a primary answers with while the cluster moves a slot or
//! fails over (`MOVED`, `ASK`, `TRYAGAIN`, `CLUSTERDOWN`).

use std::sync::Mutex;

use anyhow::{Result, bail};

use super::resp::{Connection, Reply};
use crate::serve::lock;

/// Hash slots in a cluster.
pub const SLOTS: u16 = 16384;

/// CRC16 (XMODEM: polynomial 0x1021, no reflection, start 0), the hash
/// Redis Cluster takes of a key.
fn crc16(data: &[u8]) -> u16 {
    let mut crc = 0u16;
    for &byte in data {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 == 0 {
                crc << 1
            } else {
                (crc << 1) ^ 0x1021
            };
        }
    }
    crc
}

/// The slot of `key`: of its hash tag (the text between the first `{`
/// and the next `}`, when not empty), else of the whole key.
pub fn slot(key: &str) -> u16 {
    let bytes = key.as_bytes();
    let tagged = key.find('{').and_then(|open| {
        let close = key[open + 1..].find('}')?;
        (close > 0).then(|| &bytes[open + 1..open + 1 + close])
    });
    crc16(tagged.unwrap_or(bytes)) % SLOTS
}

/// What a cluster node's refusal asks of the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redirect {
    /// The slot lives at this address now: ask there, and remember.
    Moved(String),
    /// The slot is moving: ask this address once, after `ASKING`.
    Ask(String),
    /// The cluster cannot serve the slot yet (a failover, a migration):
    /// wait, look at the map again, and try again.
    Wait,
}

/// The redirection an error reply's text asks for, if any.
pub fn redirect(refusal: &str) -> Option<Redirect> {
    let mut words = refusal.split_whitespace();
    match words.next()? {
        "MOVED" => Some(Redirect::Moved(words.nth(1)?.to_owned())),
        "ASK" => Some(Redirect::Ask(words.nth(1)?.to_owned())),
        // A primary demoted by a failover refuses writes until the client
        // finds the new one.
        "TRYAGAIN" | "CLUSTERDOWN" | "LOADING" | "READONLY" | "MASTERDOWN" => Some(Redirect::Wait),
        _ => None,
    }
}

/// Which primary serves each slot, as far as this client knows.
#[derive(Debug)]
pub struct SlotMap {
    /// The addresses given at start, asked when every known node fails.
    seeds: Vec<String>,
    /// `(first slot, last slot, primary)`, in slot order.
    ranges: Mutex<Vec<(u16, u16, String)>>,
}

impl SlotMap {
    /// A map to be filled from `seeds` (`host:port` each).
    pub fn new(seeds: Vec<String>) -> Self {
        Self {
            seeds,
            ranges: Mutex::new(Vec::new()),
        }
    }

    /// The primary that serves `slot`, if known.
    pub fn primary(&self, slot: u16) -> Option<String> {
        lock(&self.ranges)
            .iter()
            .find(|(first, last, _)| (*first..=*last).contains(&slot))
            .map(|(_, _, address)| address.clone())
    }

    /// Every node worth asking for the map: the primaries known, then the
    /// seeds.
    fn candidates(&self) -> Vec<String> {
        let mut all: Vec<String> = lock(&self.ranges)
            .iter()
            .map(|(_, _, address)| address.clone())
            .collect();
        all.extend(self.seeds.iter().cloned());
        all.dedup();
        all
    }

    /// Asks the nodes, one after another, for the map (`CLUSTER SLOTS`),
    /// through `connect`; the first answer replaces what was known.
    pub fn refresh(&self, connect: impl Fn(&str) -> Result<Connection>) -> Result<()> {
        let mut last = None;
        for address in self.candidates() {
            let answer = connect(&address)
                .and_then(|mut c| c.command(&[b"CLUSTER", b"SLOTS"]))
                .and_then(|reply| ranges(&reply, &address));
            match answer {
                Ok(ranges) if !ranges.is_empty() => {
                    *lock(&self.ranges) = ranges;
                    return Ok(());
                }
                Ok(_) => last = Some(anyhow::anyhow!("{address} knows no slots")),
                Err(err) => last = Some(err),
            }
        }
        Err(last.unwrap_or_else(|| anyhow::anyhow!("no Redis Cluster node was given")))
    }
}

/// The slot ranges of a `CLUSTER SLOTS` reply from `asked` (whose host
/// stands in for a node that gives none).
fn ranges(reply: &Reply, asked: &str) -> Result<Vec<(u16, u16, String)>> {
    let Reply::Array(Some(items)) = reply else {
        bail!("the Redis Cluster answered {reply:?} to CLUSTER SLOTS");
    };
    let asked_host = asked.rsplit_once(':').map_or(asked, |(host, _)| host);
    let mut ranges = Vec::new();
    for item in items {
        let Reply::Array(Some(parts)) = item else {
            bail!("a slot range of CLUSTER SLOTS is {item:?}");
        };
        let (Some(Reply::Int(first)), Some(Reply::Int(last)), Some(Reply::Array(Some(node)))) =
            (parts.first(), parts.get(1), parts.get(2))
        else {
            bail!("a slot range of CLUSTER SLOTS is {parts:?}");
        };
        let host = match node.first() {
            Some(Reply::Bulk(Some(host))) if !host.is_empty() => {
                String::from_utf8_lossy(host).into_owned()
            }
            _ => asked_host.to_owned(),
        };
        let Some(Reply::Int(port)) = node.get(1) else {
            bail!("a node of CLUSTER SLOTS has no port: {node:?}");
        };
        let slot = |n: i64| u16::try_from(n).ok().filter(|n| *n < SLOTS);
        let (Some(first), Some(last)) = (slot(*first), slot(*last)) else {
            bail!("CLUSTER SLOTS gave slots {first}-{last}");
        };
        ranges.push((first, last, format!("{host}:{port}")));
    }
    ranges.sort();
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_those_redis_gives() {
        // The values `CLUSTER KEYSLOT` gives.
        assert_eq!(slot("foo"), 12182);
        assert_eq!(slot("123456789"), 0x31C3 % SLOTS);
        assert_eq!(slot("{user1000}.following"), slot("user1000"));
        assert_eq!(
            slot("foo{}{bar}"),
            slot("foo{}{bar}"),
            "an empty tag: the whole key"
        );
        assert_ne!(slot("foo{}{bar}"), slot("bar"));
        assert_eq!(slot("foo{{bar}}zap"), slot("{bar"));
    }

    #[test]
    fn refusals_name_their_redirection() {
        assert_eq!(
            redirect("MOVED 3999 127.0.0.1:6381"),
            Some(Redirect::Moved("127.0.0.1:6381".into()))
        );
        assert_eq!(
            redirect("ASK 3999 127.0.0.1:6382"),
            Some(Redirect::Ask("127.0.0.1:6382".into()))
        );
        assert_eq!(
            redirect("CLUSTERDOWN The cluster is down"),
            Some(Redirect::Wait)
        );
        assert_eq!(redirect("ERR unknown command"), None);
    }

    #[test]
    fn a_slots_reply_becomes_ranges_in_order() {
        let node = |host: &[u8], port| {
            Reply::Array(Some(vec![
                Reply::Bulk(Some(host.to_vec())),
                Reply::Int(port),
            ]))
        };
        let reply = Reply::Array(Some(vec![
            Reply::Array(Some(vec![
                Reply::Int(5461),
                Reply::Int(16383),
                node(b"10.0.0.2", 7001),
            ])),
            Reply::Array(Some(vec![Reply::Int(0), Reply::Int(5460), node(b"", 7000)])),
        ]));
        let ranges = ranges(&reply, "10.0.0.9:7009").unwrap();
        assert_eq!(
            ranges,
            [
                (0, 5460, "10.0.0.9:7000".to_owned()),
                (5461, 16383, "10.0.0.2:7001".to_owned())
            ]
        );
    }
}
