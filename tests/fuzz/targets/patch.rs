//! The patch parser, seeker and `apply_patch` end to end: any files and any
//! patch, in the Codex envelope or as a Responses operation, either apply
//! or leave every file byte for byte as it was; nothing panics.
//!
//! The input is a byte of flags, then the text of `a.txt`, of `b.txt` and
//! the patch, separated by `0xff`. Flags: bits 0–1 pick the form (the
//! envelope, or an `update_file`, `create_file` or `delete_file`
//! operation), bit 2 wraps the patch text in an envelope updating `a.txt`,
//! bit 3 gives `a.txt` CRLF line ends, bit 4 CRLF to every other line of
//! `b.txt`, bits 5–7 the line `seek` starts from.

#![no_main]

use filetools_core::change::patch::parse::{FileOp, parse_created, parse_diff, parse_envelope};
use filetools_core::change::patch::scope::narrow;
use filetools_core::change::patch::seek::seek;
use filetools_core::{MemFs, Session};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

/// Separates the two files and the patch in the input.
const SEPARATOR: u8 = 0xff;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.splitn(3, |&b| b == SEPARATOR);
    let (Some(a), Some(b), Some(patch)) = (parts.next(), parts.next(), parts.next()) else {
        return;
    };
    let Ok(patch) = std::str::from_utf8(patch) else {
        return;
    };
    let a = if flags & 8 != 0 {
        crlf_every(a, 1)
    } else {
        a.to_vec()
    };
    let b = if flags & 16 != 0 {
        crlf_every(b, 2)
    } else {
        b.to_vec()
    };
    let patch = if flags & 4 != 0 {
        format!("*** Begin Patch\n*** Update File: a.txt\n{patch}\n*** End Patch")
    } else {
        patch.to_owned()
    };
    let from = usize::from(flags >> 5);

    // The parser and the seeker on their own.
    let mut hunks = Vec::new();
    if let Ok(ops) = parse_envelope(&patch) {
        for op in ops {
            if let FileOp::Update { hunks: h, .. } = op {
                hunks.extend(h);
            }
        }
    }
    if let Ok(h) = parse_diff(&patch) {
        hunks.extend(h);
    }
    let _ = parse_created(&patch);
    if let Ok(text) = std::str::from_utf8(&a) {
        let lines: Vec<&str> = text.split('\n').collect();
        for hunk in &hunks {
            let _ = seek(&lines, &hunk.old, from, hunk.end_of_file);
            for anchor in &hunk.anchors {
                let _ = seek(&lines, std::slice::from_ref(anchor), from, false);
            }
            let _ = narrow(&lines, hunk, from);
        }
    }

    // The tool, over files.
    let fs = MemFs::new();
    fs.add_file("a.txt", &a);
    fs.add_file("b.txt", &b);
    let before = fs.files();
    let arguments = match flags & 3 {
        0 => json!({"input": patch}),
        1 => json!({"operation": {"type": "update_file", "path": "a.txt", "diff": patch}}),
        2 => json!({"operation": {"type": "create_file", "path": "c.txt", "diff": patch}}),
        _ => json!({"operation": {"type": "delete_file", "path": "b.txt"}}),
    };
    let mut session = Session::open(r#"{"tools": "apply-patch"}"#, &fs).expect("a valid config");
    let result = session.call("apply_patch", &arguments.to_string());
    if result.is_error {
        assert!(
            fs.files() == before,
            "a refused patch changed files: {}",
            result.text()
        );
    }
});

/// `text` with `\r\n` for the `\n` of every `step`-th line.
fn crlf_every(text: &[u8], step: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 2);
    let mut line = 0;
    for &byte in text {
        if byte == b'\n' {
            if line % step == 0 {
                out.push(b'\r');
            }
            line += 1;
        }
        out.push(byte);
    }
    out
}
