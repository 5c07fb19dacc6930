//! The intent record of a change of several files (SPEC W11): what each
//! file holds before the change and what it will hold after, kept by the
//! host — written and synced — before the first step, so that whoever
//! claims it after a kill or a stopped call can tell, file by file, whether
//! the change landed, and put back what it had changed.
//!
//! The layout is the guest's own and opaque to the host: a first line
//! naming the format, one line of JSON describing the files, the old
//! contents one after another, and the SHA-256 of everything before it, so
//! that a record cut short by a kill is never taken for a whole one (such a
//! record was cut before the first step, which changed nothing).

use serde_json::{Value, json};

use crate::change::batch::{After, Step};
use crate::fs::sha256::sha256_hex;

/// The record's first line.
const MAGIC: &[u8] = b"filetools-change 1\n";

/// Hex digits of the closing digest, and its newline.
const TRAILER_BYTES: usize = 64 + 1;

/// One content of a file, by size and digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContentDigest {
    /// Bytes.
    pub size: u64,
    /// Lower-case hex SHA-256.
    pub sha256: String,
}

impl ContentDigest {
    /// The version `bytes` are.
    pub fn of(bytes: &[u8]) -> Self {
        Self {
            size: bytes.len() as u64,
            sha256: sha256_hex(bytes),
        }
    }
}

/// One file's part of an intended change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Planned {
    /// Root-relative path.
    pub rel: String,
    /// What the file holds before (`None`: it does not exist).
    pub before: Option<Vec<u8>>,
    /// What the step leaves (`None`: the file is removed).
    pub after: Option<ContentDigest>,
}

/// An intended change of several files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Intent {
    /// Whether the change is an undo.
    pub undo: bool,
    /// Its files, in the order the steps run.
    pub files: Vec<Planned>,
}

impl Intent {
    /// The intent of running `steps`.
    pub fn of(steps: &[Step], undo: bool) -> Self {
        let files = steps
            .iter()
            .map(|step| Planned {
                rel: step.rel.clone(),
                before: step.before.clone(),
                after: match &step.after {
                    After::Bytes { bytes, .. } => Some(ContentDigest::of(bytes)),
                    After::Nothing => None,
                },
            })
            .collect();
        Self { undo, files }
    }

    /// The record the host keeps.
    pub fn encode(&self) -> Vec<u8> {
        let files: Vec<Value> = self
            .files
            .iter()
            .map(|file| {
                json!({
                    "rel": file.rel,
                    "before": file.before.as_ref().map(Vec::len),
                    "after": file.after.as_ref().map(|v| json!({"size": v.size, "sha256": v.sha256})),
                })
            })
            .collect();
        let header = json!({"undo": self.undo, "files": files}).to_string();
        let olds: usize = self
            .files
            .iter()
            .filter_map(|f| f.before.as_ref())
            .map(Vec::len)
            .sum();
        let mut record = Vec::with_capacity(MAGIC.len() + header.len() + 1 + olds + TRAILER_BYTES);
        record.extend_from_slice(MAGIC);
        record.extend_from_slice(header.as_bytes());
        record.push(b'\n');
        for before in self.files.iter().filter_map(|f| f.before.as_ref()) {
            record.extend_from_slice(before);
        }
        let digest = sha256_hex(&record);
        record.extend_from_slice(digest.as_bytes());
        record.push(b'\n');
        record
    }

    /// The intent `record` holds; `None` when it is not a whole record of
    /// this format (cut short by a kill while it was being kept).
    pub fn decode(record: &[u8]) -> Option<Self> {
        let body_len = record.len().checked_sub(TRAILER_BYTES)?;
        let (body, trailer) = record.split_at(body_len);
        if trailer[64] != b'\n' || sha256_hex(body).as_bytes() != &trailer[..64] {
            return None;
        }
        let rest = body.strip_prefix(MAGIC)?;
        let end = rest.iter().position(|&b| b == b'\n')?;
        let header: Value = serde_json::from_slice(&rest[..end]).ok()?;
        let mut olds = &rest[end + 1..];
        let mut files = Vec::new();
        for file in header.get("files")?.as_array()? {
            let rel = file.get("rel")?.as_str()?.to_owned();
            let before = match file.get("before")? {
                Value::Null => None,
                size => {
                    let size = usize::try_from(size.as_u64()?).ok()?;
                    if size > olds.len() {
                        return None;
                    }
                    let (old, more) = olds.split_at(size);
                    olds = more;
                    Some(old.to_vec())
                }
            };
            let after = match file.get("after")? {
                Value::Null => None,
                version => Some(ContentDigest {
                    size: version.get("size")?.as_u64()?,
                    sha256: version.get("sha256")?.as_str()?.to_owned(),
                }),
            };
            files.push(Planned { rel, before, after });
        }
        if !olds.is_empty() {
            return None;
        }
        Some(Self {
            undo: header.get("undo")?.as_bool()?,
            files,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent() -> Intent {
        Intent {
            undo: false,
            files: vec![
                Planned {
                    rel: "a.txt".into(),
                    before: Some(b"old a\n".to_vec()),
                    after: Some(ContentDigest::of(b"new a\n")),
                },
                Planned {
                    rel: "dir/new.txt".into(),
                    before: None,
                    after: Some(ContentDigest::of(b"")),
                },
                Planned {
                    rel: "gone.txt".into(),
                    before: Some(Vec::new()),
                    after: None,
                },
            ],
        }
    }

    #[test]
    fn a_record_reads_back_as_the_intent_it_was_made_from() {
        let intent = intent();
        assert_eq!(Intent::decode(&intent.encode()), Some(intent));
    }

    #[test]
    fn a_record_cut_anywhere_or_changed_anywhere_is_not_taken() {
        let record = intent().encode();
        for len in 0..record.len() {
            assert_eq!(Intent::decode(&record[..len]), None, "cut at {len}");
        }
        for at in 0..record.len() {
            let mut changed = record.clone();
            changed[at] ^= 0x20;
            assert_eq!(Intent::decode(&changed), None, "changed at {at}");
        }
    }
}
