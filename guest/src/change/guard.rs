//! The checks every change passes before anything is written (SPEC W2, W4,
//! E4, S3): the target is a regular file or absent, the session has read it,
//! and it is unchanged since — the content fingerprint decides when the
//! ledger has one, so a touched mtime passes and a same-size, same-mtime
//! rewrite is caught. The write itself then carries the SHA-256 of the
//! content checked here as its precondition, so a change in between is a
//! conflict on the host, not a lost edit.

use sha2::{Digest, Sha256};

use crate::answers::error::ToolError;
use crate::answers::refusal::{Change, Refusal};
use crate::answers::tool::Tool;
use crate::config::MAX_CHUNK_BYTES;
use crate::fs::digests::Digests;
use crate::fs::host::{FileKind, FileStamp, FsError, HostFs, Metadata, Precondition};
use crate::fs::sha256::hex;
use crate::memory::fingerprint::Fingerprint;
use crate::memory::ledger::{Record, View};
use crate::memory::seen::same_bytes;
use crate::view::sniff::{Kind, SNIFF_BYTES, sniff};

/// The file as it is now.
#[derive(Debug, Clone)]
pub(crate) struct Current {
    /// Its metadata.
    pub meta: Metadata,
    /// Bytes read.
    pub len: u64,
    /// The content, when it was no larger than the caller keeps.
    pub bytes: Option<Vec<u8>>,
    /// Its fingerprint.
    pub fingerprint: u64,
    /// Its SHA-256, lower-case hex.
    pub sha256: String,
    /// Its XXH3-128, lower-case hex, when it was computed with the SHA-256.
    pub xxh3: Option<String>,
    /// What its first bytes say it is.
    pub kind: Kind,
    /// Whether it is the content the session knew ([`Known`]).
    pub known: bool,
}

impl Current {
    /// The precondition that lets the host write only over this content.
    pub fn precondition(&self) -> Precondition {
        Precondition::Matches(FileStamp {
            size: self.len,
            mtime_ns: self.meta.mtime_ns,
            sha256: Some(self.sha256.clone()),
            xxh3: self.xxh3.clone(),
        })
    }

    /// Refuses a file that is not text (a binary, an image, a PDF): no
    /// read showed its bytes, so none counts as seeing it, and no encoding
    /// turns it into text (SPEC R15, W2).
    pub fn text_only(&self, path: &str) -> Result<(), Refusal> {
        match self.kind {
            Kind::Text => Ok(()),
            Kind::Binary(mime) | Kind::Image(mime) => Err(Refusal::Binary {
                path: path.to_owned(),
                mime,
            }),
            Kind::Pdf => Err(Refusal::Binary {
                path: path.to_owned(),
                mime: "application/pdf",
            }),
        }
    }

    /// How the file differs from `record`, if it does.
    pub fn change_since(&self, record: &Record) -> Option<Change> {
        if record.same_content(self.len, self.meta.mtime_ns, Some(self.fingerprint)) {
            return None;
        }
        Some(if record.size != self.len {
            Change::Size {
                was: record.size,
                now: self.len,
            }
        } else if record.fingerprint.is_some() {
            Change::Content
        } else {
            Change::Modified
        })
    }
}

/// Metadata of a change's target (`stat`, as the repair found it), `None`
/// when it does not exist; directories and special files are refused.
pub(crate) fn target_kind(
    stat: &Result<Metadata, FsError>,
    path: &str,
) -> Result<Option<Metadata>, ToolError> {
    match stat {
        Ok(meta) => match meta.kind {
            FileKind::File => Ok(Some(*meta)),
            FileKind::Directory => Err(ToolError::IsDirectory {
                path: path.to_owned(),
            }),
            kind => Err(ToolError::NotRegular {
                path: path.to_owned(),
                kind,
            }),
        },
        Err(FsError::NotFound) => Ok(None),
        Err(FsError::NotADirectory) => Err(ToolError::WriteFailed {
            path: path.to_owned(),
            error: FsError::NotADirectory,
        }),
        Err(err) => Err(ToolError::from_fs(path, err.clone())),
    }
}

/// Reads `rel` whole in `chunk`-byte pieces, hashing as it goes and keeping
/// the bytes when there are at most `keep` of them.
pub(crate) fn load<F: HostFs + ?Sized>(
    fs: &F,
    rel: &str,
    path: &str,
    meta: Metadata,
    chunk: u32,
    keep: u64,
) -> Result<Current, ToolError> {
    load_knowing(fs, rel, path, meta, (chunk, keep), None)
}

/// Content the session knows already: its view of a file, with the view's
/// digests and the fingerprint of the version its record describes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Known<'a> {
    pub bytes: &'a [u8],
    pub view: &'a View,
    pub fingerprint: Option<u64>,
}

/// [`load`], given content the session knows ([`Known`]): content found
/// equal to it takes its digests and fingerprint, and is not hashed again.
pub(crate) fn load_knowing<F: HostFs + ?Sized>(
    fs: &F,
    rel: &str,
    path: &str,
    meta: Metadata,
    (chunk, keep): (u32, u64),
    known: Option<Known<'_>>,
) -> Result<Current, ToolError> {
    // Streamed content is fingerprinted as it comes; kept content at the
    // end, unless it is the content known.
    let mut fingerprint = Fingerprint::new();
    // Streamed only once the content is not kept; kept content is hashed
    // whole at the end, where the host may hash it.
    let mut sha = (meta.size > keep).then(Sha256::new);
    let mut bytes = (meta.size <= keep).then(Vec::new);
    // Content kept is read in one piece when it fits one (its size and a
    // byte more, to see it end), instead of many of `chunk`.
    let chunk = match bytes {
        Some(_) => u32::try_from(meta.size.saturating_add(1))
            .unwrap_or(u32::MAX)
            .clamp(chunk, MAX_CHUNK_BYTES.max(chunk)),
        None => chunk,
    };
    let mut head = Vec::new();
    let mut len = 0u64;
    loop {
        let piece = fs
            .read(rel, len, chunk)
            .map_err(|err| ToolError::from_fs(path, err))?;
        let room = (SNIFF_BYTES as usize).saturating_sub(head.len());
        head.extend_from_slice(&piece[..piece.len().min(room)]);
        len += piece.len() as u64;
        if let Some(kept) = bytes.as_mut() {
            if len > keep {
                // It grew past what is kept since its size was taken.
                let mut streamed = Sha256::new();
                streamed.update(&*kept);
                fingerprint.update(kept);
                sha = Some(streamed);
                bytes = None;
            } else if kept.is_empty() {
                // The first piece is kept as it came, not copied.
                *kept = piece;
                if kept.len() < chunk as usize {
                    break;
                }
                continue;
            } else {
                kept.extend_from_slice(&piece);
            }
        }
        if let Some(sha) = sha.as_mut() {
            sha.update(&piece);
            fingerprint.update(&piece);
        }
        if piece.len() < chunk as usize {
            break;
        }
    }
    let kept = bytes.as_deref();
    let known =
        known.filter(|known| sha.is_none() && same_bytes(known.bytes, kept.unwrap_or_default()));
    let (Digests { sha256, xxh3 }, fingerprint) = match (sha, kept, known) {
        (Some(sha), _, _) => {
            let sha256 = hex(&sha.finalize());
            (Digests { sha256, xxh3: None }, fingerprint.finish())
        }
        (None, kept, Some(known)) => {
            let digests = Digests {
                sha256: known.view.sha256.clone(),
                xxh3: known.view.xxh3.clone(),
            };
            let kept = kept.unwrap_or_default();
            let fingerprint = known.fingerprint.map_or_else(
                || Fingerprint::of(kept),
                |fingerprint| {
                    // The record describes the version its view holds.
                    debug_assert_eq!(fingerprint, Fingerprint::of(kept));
                    fingerprint
                },
            );
            (digests, fingerprint)
        }
        (None, kept, None) => {
            let kept = kept.unwrap_or_default();
            (Digests::of(kept), Fingerprint::of(kept))
        }
    };
    Ok(Current {
        meta,
        len,
        known: known.is_some(),
        bytes,
        fingerprint,
        sha256,
        xxh3,
        kind: sniff(&head),
    })
}

/// The fingerprint of `rel`'s whole content, read in `chunk`-byte pieces.
pub(crate) fn fingerprint<F: HostFs + ?Sized>(
    fs: &F,
    rel: &str,
    chunk: u32,
) -> Result<u64, FsError> {
    let mut fingerprint = Fingerprint::new();
    let mut offset = 0u64;
    loop {
        let piece = fs.read(rel, offset, chunk)?;
        fingerprint.update(&piece);
        offset += piece.len() as u64;
        if piece.len() < chunk as usize {
            return Ok(fingerprint.finish());
        }
    }
}

/// The session's record of `rel`, provided the file is unchanged since it.
pub(crate) fn fresh<'a>(
    record: Option<&'a Record>,
    current: &Current,
    path: &str,
    tool: Tool,
) -> Result<&'a Record, Refusal> {
    let record = record.ok_or_else(|| Refusal::NotRead {
        path: path.to_owned(),
        tool,
    })?;
    match current.change_since(record) {
        None => Ok(record),
        Some(change) => Err(Refusal::Stale {
            path: path.to_owned(),
            tool,
            change,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::digests::xxh3_hex;
    use crate::fs::memory::MemFs;
    use crate::fs::sha256::sha256_hex;
    use crate::memory::ledger::Coverage;
    use crate::text::textfile::Style;

    fn record(size: u64, mtime_ns: u64, fingerprint: Option<u64>) -> Record {
        Record {
            size,
            mtime_ns,
            fingerprint,
            seen: Coverage::all(1),
            total_lines: Some(1),
            style: Style::default(),
            call: 1,
            dedup: None,
            view: None,
        }
    }

    fn current(fs: &MemFs, path: &str) -> Current {
        let meta = fs.stat(path).unwrap();
        load(fs, path, path, meta, 3, 100).unwrap()
    }

    #[test]
    fn a_touched_file_with_the_same_content_is_fresh() {
        let fs = MemFs::new();
        fs.add_file("a", b"hello\n");
        let now = current(&fs, "a");
        let seen = record(6, now.meta.mtime_ns - 1, Some(Fingerprint::of(b"hello\n")));
        assert!(fresh(Some(&seen), &now, "a", Tool::Write).is_ok());
    }

    #[test]
    fn same_size_and_mtime_with_other_content_is_stale() {
        let fs = MemFs::new();
        fs.add_file("a", b"hello\n");
        let now = current(&fs, "a");
        let seen = record(6, now.meta.mtime_ns, Some(Fingerprint::of(b"jello\n")));
        let err = fresh(Some(&seen), &now, "a", Tool::Edit).unwrap_err();
        assert!(matches!(
            err,
            Refusal::Stale {
                change: Change::Content,
                ..
            }
        ));
    }

    #[test]
    fn without_a_fingerprint_size_and_mtime_decide() {
        let fs = MemFs::new();
        fs.add_file("a", b"hello\n");
        let now = current(&fs, "a");
        assert!(
            fresh(
                Some(&record(6, now.meta.mtime_ns, None)),
                &now,
                "a",
                Tool::Write
            )
            .is_ok()
        );
        let err = fresh(Some(&record(6, 1, None)), &now, "a", Tool::Write).unwrap_err();
        assert!(matches!(
            err,
            Refusal::Stale {
                change: Change::Modified,
                ..
            }
        ));
        let err = fresh(None, &now, "a", Tool::Write).unwrap_err();
        assert!(matches!(err, Refusal::NotRead { .. }));
    }

    #[test]
    fn large_files_are_hashed_but_not_kept() {
        let fs = MemFs::new();
        fs.add_file("big", &[b'x'; 500]);
        let meta = fs.stat("big").unwrap();
        let loaded = load(&fs, "big", "big", meta, 64, 100).unwrap();
        assert!(loaded.bytes.is_none());
        assert_eq!(loaded.len, 500);
        assert_eq!(loaded.fingerprint, Fingerprint::of(&[b'x'; 500]));
        assert_eq!(loaded.sha256, sha256_hex(&[b'x'; 500]));
    }

    #[test]
    fn a_file_that_grew_past_what_is_kept_is_hashed_whole() {
        let fs = MemFs::new();
        fs.add_file("grew", &[b'x'; 80]);
        let small = fs.stat("grew").unwrap();
        let content: Vec<u8> = (0..=255).cycle().take(500).collect();
        fs.add_file("grew", &content);
        let loaded = load(&fs, "grew", "grew", small, 64, 100).unwrap();
        assert!(loaded.bytes.is_none());
        assert_eq!(loaded.sha256, sha256_hex(&content));
        let kept = load(&fs, "grew", "grew", small, 64, 1000).unwrap();
        assert_eq!(kept.bytes.as_deref(), Some(&content[..]));
        assert_eq!(kept.sha256, sha256_hex(&content));
        assert_eq!(kept.xxh3, Some(xxh3_hex(&content)));
        assert_eq!(
            kept.precondition(),
            Precondition::Matches(FileStamp {
                size: 500,
                mtime_ns: small.mtime_ns,
                sha256: Some(sha256_hex(&content)),
                xxh3: Some(xxh3_hex(&content)),
            })
        );
    }

    #[test]
    fn content_equal_to_the_sessions_view_takes_its_digests() {
        let fs = MemFs::new();
        fs.add_file("a", b"same");
        let meta = fs.stat("a").unwrap();
        let view = View {
            sha256: "s".repeat(64),
            xxh3: Some("x".repeat(32)),
            at: 1,
        };
        let fingerprint = Fingerprint::of(b"same");
        let known = Some(Known {
            bytes: b"same",
            view: &view,
            fingerprint: Some(fingerprint),
        });
        let loaded = load_knowing(&fs, "a", "a", meta, (64, 100), known).unwrap();
        assert_eq!(
            (loaded.sha256, loaded.xxh3),
            (view.sha256.clone(), view.xxh3.clone())
        );
        assert_eq!(loaded.fingerprint, fingerprint);
        // Other content is hashed and fingerprinted as it is.
        let other = Some(Known {
            bytes: b"else",
            view: &view,
            fingerprint: Some(fingerprint),
        });
        let loaded = load_knowing(&fs, "a", "a", meta, (64, 100), other).unwrap();
        assert_eq!(loaded.sha256, sha256_hex(b"same"));
        assert_eq!(loaded.fingerprint, Fingerprint::of(b"same"));
    }
}

/// Binary files through every shape: a read that showed none of their
/// bytes lets no change replace them.
#[cfg(test)]
mod binary_tests {
    use serde_json::{Value, json};

    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    /// A SQLite database's first bytes, then bytes every legacy encoding
    /// decodes.
    const DB: &[u8] = b"SQLite format 3\x00\x10\x00\x01\x01\x00@  \x00\x00\x00\x02rows\xe9\xa8\n";

    fn session(tools: &str) -> Session<MemFs> {
        let fs = MemFs::new();
        fs.add_file("app.db", DB);
        Session::open(&json!({ "tools": tools }).to_string(), fs).unwrap()
    }

    fn call(s: &mut Session<MemFs>, tool: &str, args: &Value) -> (String, Value) {
        let result = s.call(tool, &args.to_string());
        (result.text(), result.metadata["error"].clone())
    }

    fn refused_as_binary((text, code): (String, Value)) {
        assert_eq!(code, "binary", "{text}");
        assert!(
            text.starts_with("Error: app.db is a binary file (application/vnd.sqlite3), not text; nothing was written."),
            "{text}"
        );
    }

    #[test]
    fn a_binary_read_is_no_read_for_write_or_edit() {
        let mut s = session("filetools");
        let (text, _) = call(&mut s, "read", &json!({"file_path": "app.db"}));
        assert!(
            text.starts_with("[binary file: application/vnd.sqlite3"),
            "{text}"
        );
        assert!(s.state().ledger.get("app.db").is_none());
        let write = json!({"file_path": "app.db", "content": "x\n"});
        refused_as_binary(call(&mut s, "write", &write));
        let write = json!({"file_path": "app.db", "content": "x\n", "encoding": "windows-1250"});
        refused_as_binary(call(&mut s, "write", &write));
        let edit = json!({"file_path": "app.db", "old_string": "rows", "new_string": "cols", "encoding": "windows-1250"});
        refused_as_binary(call(&mut s, "edit", &edit));
        assert_eq!(s.fs().contents("app.db").unwrap(), DB);
    }

    #[test]
    fn an_encoding_does_not_make_a_binary_file_text() {
        let mut s = session("filetools");
        let read = json!({"file_path": "app.db", "encoding": "windows-1250"});
        let (text, code) = call(&mut s, "read", &read);
        assert_eq!(code, Value::Null);
        assert!(
            text.ends_with(
                "its bytes are not shown, and naming an encoding does not make a binary file text]"
            ),
            "{text}"
        );
        assert!(!text.contains("rows"), "{text}");
        assert!(s.state().ledger.get("app.db").is_none());
        let edit = json!({"file_path": "app.db", "old_string": "rows", "new_string": "cols", "encoding": "windows-1250"});
        refused_as_binary(call(&mut s, "edit", &edit));
        assert_eq!(s.fs().contents("app.db").unwrap(), DB);
    }

    #[test]
    fn a_text_editor_view_of_a_binary_is_no_view_for_create_or_str_replace() {
        let mut s = session("text-editor");
        let tool = crate::tools::shapes::text_editor::NAME;
        let (text, _) = call(&mut s, tool, &json!({"command": "view", "path": "app.db"}));
        assert!(text.starts_with("[binary file: "), "{text}");
        for args in [
            json!({"command": "create", "path": "app.db", "file_text": "x\n"}),
            json!({"command": "str_replace", "path": "app.db", "old_str": "rows", "new_str": "cols"}),
            json!({"command": "insert", "path": "app.db", "insert_line": 0, "insert_text": "x"}),
        ] {
            let (text, code) = call(&mut s, tool, &args);
            assert_eq!(code, "binary", "{text}");
            assert!(text.contains("A view describes it"), "{text}");
            assert!(!text.contains("encoding="), "{text}");
        }
        assert_eq!(s.fs().contents("app.db").unwrap(), DB);
    }

    #[test]
    fn an_image_seen_is_not_text_to_replace() {
        let fs = MemFs::new();
        fs.add_file("logo.png", b"\x89PNG\r\n\x1a\nnot really");
        let mut s = Session::open("{}", fs).unwrap();
        let write = json!({"file_path": "logo.png", "content": "x\n"});
        let (text, code) = call(&mut s, "write", &write);
        assert_eq!(code, "binary", "{text}");
        assert!(text.contains("(image/png)"), "{text}");
    }
}
