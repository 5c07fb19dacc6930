//! Protocol lines of every wrong kind, sent to one session.
//!
//! Random bytes (valid UTF-8 or not), JSON that is not a call, arrays
//! nested far deeper than any parser's stack, calls with unknown tools and
//! malformed arguments, a path of a megabyte, a line longer than the cap —
//! mixed with real calls. Every line must get exactly one answer (a real
//! call's answer must be its own), no answer may be large, and the session
//! must neither die nor forget: a file read before the fuzz is edited after
//! it without being read again.

use std::fmt;
use std::fs;
use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::Rng;
use crate::cli::{SessionProcess, succeeded, text};

/// What the lines came to.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Lines sent.
    pub sent: u64,
    /// Lines answered.
    pub answered: u64,
    /// Real calls whose answer was not their own.
    pub mismatched: u64,
    /// The largest answer, in bytes.
    pub largest_answer: u64,
    /// The line after which the session ended, if it did.
    pub died_after: Option<u64>,
    /// Whether the session still knew the file read before the fuzz.
    pub memory_kept: bool,
    /// The session's peak resident memory, in KiB (`VmHWM`).
    pub peak_kib: Option<u64>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} lines sent, {} answered, {} answers not their call's, largest answer {} bytes, {}, {}",
            self.sent,
            self.answered,
            self.mismatched,
            self.largest_answer,
            match self.died_after {
                Some(n) => format!("the session died after line {n}"),
                None => "the session lived".to_owned(),
            },
            if self.memory_kept {
                "its memory kept"
            } else {
                "its memory lost"
            }
        )?;
        if let Some(kib) = self.peak_kib {
            write!(f, ", peak memory {} MiB", kib / 1024)?;
        }
        Ok(())
    }
}

/// One generated line: its bytes, and for a real call the text its answer
/// must start with.
struct Line {
    bytes: Vec<u8>,
    expect: Option<&'static str>,
}

/// Sends `lines` generated lines (and one over-long line of `long_line`
/// bytes) to a session of `bin`.
pub fn cli(bin: &Path, dir: &Path, lines: u64, long_line: u64, rng: &mut Rng) -> Result<Report> {
    fs::write(dir.join("memory.txt"), "remember me\n")?;
    fs::write(dir.join("known.txt"), "known line\n")?;
    let mut session = SessionProcess::start(bin, dir, &[])?;
    let mut report = Report::default();
    let first = session.call("read", &json!({"file_path": "memory.txt"}))?;
    if !succeeded(&first) {
        anyhow::bail!("the first read failed: {first}");
    }
    let long_at = rng.below(lines.max(1));
    for n in 0..lines {
        let line = if n == long_at {
            Line {
                bytes: vec![b'{'; long_line as usize],
                expect: None,
            }
        } else {
            generate(rng)
        };
        report.sent += 1;
        let mut bytes = line.bytes;
        bytes.push(b'\n');
        if session.send_raw(&bytes).is_err() {
            report.died_after = Some(n);
            break;
        }
        let Ok(Some(answer)) = session.answer_within(crate::cli::ANSWER_TIMEOUT) else {
            report.died_after = Some(n);
            break;
        };
        report.answered += 1;
        let size = answer.to_string().len() as u64;
        report.largest_answer = report.largest_answer.max(size);
        if let Some(expect) = line.expect
            && !text(&answer).starts_with(expect)
        {
            report.mismatched += 1;
        }
    }
    report.peak_kib = peak_kib(session.id());
    if report.died_after.is_none() {
        let edit = json!({"file_path": "memory.txt", "old_string": "remember", "new_string": "remembered"});
        report.memory_kept = session.call("edit", &edit).is_ok_and(|a| succeeded(&a));
    }
    let _ = session.finish();
    Ok(report)
}

/// A random protocol line.
fn generate(rng: &mut Rng) -> Line {
    let bytes = match rng.below(10) {
        // Random bytes, mostly not UTF-8.
        0 | 1 => {
            let len = rng.between(1, 2000);
            let mut bytes: Vec<u8> = (0..len).map(|_| (rng.next_u64() >> 24) as u8).collect();
            bytes.retain(|&b| b != b'\n');
            bytes.insert(0, b'#');
            bytes
        }
        // Printable junk.
        2 => {
            let len = rng.between(1, 300);
            let mut text: String = (0..len)
                .map(|_| char::from(b'!' + (rng.below(94) as u8)))
                .collect();
            text.insert(0, '@');
            text.into_bytes()
        }
        // JSON that is not a call.
        3 => [
            "[]",
            "42",
            "\"read\"",
            "null",
            "{}",
            "{\"tool\": 7}",
            "{\"args\": {}}",
        ][rng.below(7) as usize]
            .as_bytes()
            .to_vec(),
        // Nesting far past any parser's stack.
        4 => {
            let depth = rng.between(100, 200_000) as usize;
            let mut bytes = vec![b'['; depth];
            bytes.extend(std::iter::repeat_n(b']', depth));
            bytes
        }
        // Unknown tools and malformed arguments.
        5 => {
            let call = match rng.below(5) {
                0 => json!({"tool": "x".repeat(rng.between(1, 100_000) as usize), "args": {}}),
                1 => json!({"tool": "read", "args": {"file_path": "known.txt", "offset": "ten"}}),
                2 => json!({"tool": "read", "args": {"file_path": 42}}),
                3 => json!({"tool": "edit", "args": "{not json"}),
                _ => json!({"tool": "read", "args": {"file_path": "a\u{0}b"}}),
            };
            call.to_string().into_bytes()
        }
        // A path of up to a megabyte.
        6 => {
            let path = "p".repeat(rng.between(4097, 1 << 20) as usize);
            json!({"tool": "read", "args": {"file_path": path}})
                .to_string()
                .into_bytes()
        }
        // A call ended by CRLF.
        7 => {
            return Line {
                bytes: b"{\"tool\":\"read\",\"args\":{\"file_path\":\"known.txt\"}}\r".to_vec(),
                expect: Some("1\tknown line"),
            };
        }
        // A real call.
        _ => {
            return Line {
                bytes: json!({"tool": "read", "args": {"file_path": "known.txt", "offset": 1}})
                    .to_string()
                    .into_bytes(),
                expect: Some("1\tknown line"),
            };
        }
    };
    Line {
        bytes,
        expect: None,
    }
}

/// The peak resident memory of process `pid`, in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
