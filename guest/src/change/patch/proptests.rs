//! The patch tool against a small applier written here from the rules the
//! module docs give (Codex's seek, one place per hunk, a last empty line
//! standing for the final newline, hunks of added lines at the end or after
//! their anchor), over random files and random patches. Well-formed patches
//! must give the same bytes or the same refusal; any patch text at all must
//! give an answer, never a trap, and a refused patch changes no byte.

use proptest::prelude::*;
use serde_json::json;

use crate::fs::memory::MemFs;
use crate::tools::session::Session;

/// Lines files are made of: few, so context is often ambiguous.
const WORDS: [&str; 5] = ["a", "b", "c", "d", ""];
/// Lines patches add.
const ADDED: [&str; 4] = ["x", "y", "", "a"];

/// A tiny deterministic generator, seeded by proptest.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// One hunk as the generator means it.
#[derive(Debug, Clone)]
struct Planned {
    anchor: Option<String>,
    /// `(' ' | '-' | '+', line)`.
    lines: Vec<(char, String)>,
    end_of_file: bool,
}

impl Planned {
    fn old_lines(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter(|(k, _)| *k != '+')
            .map(|(_, l)| l.clone())
            .collect()
    }
    fn new_lines(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter(|(k, _)| *k != '-')
            .map(|(_, l)| l.clone())
            .collect()
    }
}

fn file_lines(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .map(str::to_owned)
        .collect()
}

/// Where `old` stands at or after `from`: `Ok(None)` nowhere, `Err` in
/// several places.
fn place(lines: &[String], old: &[String], from: usize, eof: bool) -> Result<Option<usize>, ()> {
    if old.is_empty() || old.len() > lines.len() {
        return Ok(None);
    }
    let last = lines.len() - old.len();
    let starts: Vec<usize> = (from..=last)
        .filter(|&i| lines[i..i + old.len()] == *old)
        .collect();
    if eof && starts.contains(&last) {
        return Ok(Some(last));
    }
    match starts.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(*one)),
        _ => Err(()),
    }
}

/// The text the rules give, or `None` for a refusal.
fn expected(text: &str, hunks: &[Planned]) -> Option<String> {
    let lines = file_lines(text);
    let mut cursor = 0;
    let mut edits: Vec<(usize, usize, Vec<String>)> = Vec::new();
    for hunk in hunks {
        let (old, mut new) = (hunk.old_lines(), hunk.new_lines());
        if old.is_empty() && new.is_empty() {
            return None;
        }
        let mut from = cursor;
        if let Some(anchor) = &hunk.anchor {
            // Lines here are never indented, so no anchor opens a block,
            // and one above the cursor does not count.
            let after: Vec<usize> = (cursor..lines.len())
                .filter(|&i| lines[i] == *anchor)
                .collect();
            match after.as_slice() {
                [one] => from = one + 1,
                _ => return None,
            }
        }
        // A last empty line stands for the final newline (or separates
        // hunks): sought without it when missing or ambiguous with it.
        let mut wanted = old.clone();
        let mut at = if wanted.is_empty() {
            Ok(None)
        } else {
            place(&lines, &wanted, from, hunk.end_of_file)
        };
        if !matches!(at, Ok(Some(_))) && wanted.last().is_some_and(String::is_empty) {
            wanted.pop();
            if new.last().is_some_and(String::is_empty) {
                new.pop();
            }
            if !wanted.is_empty() {
                let retried = place(&lines, &wanted, from, hunk.end_of_file);
                if matches!(retried, Ok(Some(_))) || at == Ok(None) {
                    at = retried;
                } else {
                    return None;
                }
            }
        }
        if wanted.is_empty() {
            let at = if hunk.anchor.is_some() {
                from
            } else {
                lines.len() - usize::from(lines.last().is_some_and(String::is_empty))
            };
            edits.push((at, 0, new));
            if hunk.anchor.is_some() {
                cursor = at;
            }
            continue;
        }
        let at = at.ok()??;
        edits.push((at, wanted.len(), new));
        cursor = at + wanted.len();
    }
    edits.sort_by_key(|e| e.0);
    let mut out: Vec<String> = Vec::new();
    let mut next = 0;
    for (at, len, new) in edits {
        if at < next {
            return None;
        }
        out.extend_from_slice(&lines[next..at]);
        out.extend(new);
        next = at + len;
    }
    out.extend_from_slice(&lines[next..]);
    let mut result = out.join("\n");
    if (text.is_empty() || text.ends_with('\n')) && !out.is_empty() {
        result.push('\n');
    }
    Some(result)
}

/// A random file's text.
fn random_file(rng: &mut Rng) -> String {
    let n = rng.below(12);
    let lines: Vec<&str> = (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect();
    let mut text = lines.join("\n");
    if n > 0 && !rng.chance(4) {
        text.push('\n');
    }
    text
}

/// Hunks cut from the file in order, as a model that read it writes them.
fn random_hunks(rng: &mut Rng, text: &str) -> Vec<Planned> {
    let lines = file_lines(text);
    let mut hunks = Vec::new();
    let mut cursor = 0;
    for _ in 0..=rng.below(3) {
        let start = cursor + rng.below(lines.len() + 1 - cursor);
        let take = |rng: &mut Rng, from: usize| rng.below(3).min(lines.len() - from);
        let pre = take(rng, start);
        let removed = take(rng, start + pre);
        let post = take(rng, start + pre + removed);
        let mut planned = Planned {
            anchor: None,
            lines: Vec::new(),
            end_of_file: false,
        };
        planned
            .lines
            .extend(lines[start..start + pre].iter().map(|l| (' ', l.clone())));
        planned.lines.extend(
            lines[start + pre..start + pre + removed]
                .iter()
                .map(|l| ('-', l.clone())),
        );
        for _ in 0..rng.below(3) {
            planned
                .lines
                .push(('+', ADDED[rng.below(ADDED.len())].to_owned()));
        }
        let end = start + pre + removed + post;
        planned.lines.extend(
            lines[start + pre + removed..end]
                .iter()
                .map(|l| (' ', l.clone())),
        );
        if rng.chance(3) {
            // Codex's tests end every hunk with a blank line.
            planned.lines.push((' ', String::new()));
        }
        if start > 0 && rng.chance(3) {
            planned.anchor = Some(lines[rng.below(start)].clone()).filter(|l| !l.is_empty());
        }
        if planned.lines.is_empty() {
            // An empty hunk stacks its anchor on the next one.
            planned.lines.push(('+', "z".to_owned()));
        }
        planned.end_of_file = end == lines.len() && rng.chance(2);
        cursor = end;
        hunks.push(planned);
    }
    hunks
}

/// The envelope of `hunks` over `f.txt`, blank context lines written
/// either way Codex reads them.
fn envelope(rng: &mut Rng, hunks: &[Planned]) -> String {
    let mut text = String::from("*** Begin Patch\n*** Update File: f.txt\n");
    for hunk in hunks {
        match &hunk.anchor {
            Some(anchor) => {
                text.push_str("@@ ");
                text.push_str(anchor);
                text.push('\n');
            }
            None => text.push_str("@@\n"),
        }
        for (kind, line) in &hunk.lines {
            if *kind == ' ' && line.is_empty() && rng.chance(2) {
                text.push('\n');
            } else {
                text.push(*kind);
                text.push_str(line);
                text.push('\n');
            }
        }
        if hunk.end_of_file {
            text.push_str("*** End of File\n");
        }
    }
    text.push_str("*** End Patch");
    text
}

/// Lines any patch may hold, well placed or not.
const PIECES: [&str; 16] = [
    "@@",
    "@@ a",
    "@@ b",
    "@@     c",
    "+x",
    "+",
    "-a",
    "-",
    " b",
    " ",
    "",
    "*** End of File",
    "*** Update File: f.txt",
    "*** Move to: g.txt",
    "*** Add File: h.txt",
    "junk",
];

fn run(text: &str, call: &str) -> (bool, Vec<u8>, String) {
    let fs = MemFs::new();
    fs.add_file("f.txt", text.as_bytes());
    let mut session = Session::open(r#"{"tools": "apply-patch"}"#, fs).unwrap();
    let result = session.call("apply_patch", call);
    let after = session.fs().contents("f.txt").unwrap_or_default();
    (result.is_error, after, result.text().clone())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_well_formed_patch_gives_what_the_rules_give(seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let text = random_file(&mut rng);
        let hunks = random_hunks(&mut rng, &text);
        let patch = envelope(&mut rng, &hunks);
        let (refused, after, answer) = run(&text, &json!({"input": patch}).to_string());
        if let Some(want) = expected(&text, &hunks) {
            prop_assert!(!refused, "{patch:?} on {text:?}: {answer}");
            prop_assert_eq!(String::from_utf8(after).unwrap(), want, "{:?} on {:?}", patch, text);
        } else {
            prop_assert!(refused, "{patch:?} on {text:?}: {answer}");
            prop_assert_eq!(after, text.as_bytes());
        }
    }

    #[test]
    fn any_patch_text_gets_an_answer_and_a_refusal_changes_nothing(seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let text = random_file(&mut rng);
        let mut patch = String::from("*** Begin Patch\n*** Update File: f.txt\n");
        for _ in 0..rng.below(14) {
            patch.push_str(PIECES[rng.below(PIECES.len())]);
            patch.push_str(if rng.chance(5) { "\r\n" } else { "\n" });
        }
        patch.push_str("*** End Patch");
        let call = if rng.chance(3) {
            let diff = patch.lines().skip(2).collect::<Vec<_>>().join("\n");
            json!({"operation": {"type": "update_file", "path": "f.txt", "diff": diff}}).to_string()
        } else {
            json!({"input": patch}).to_string()
        };
        let (refused, after, _) = run(&text, &call);
        if refused {
            prop_assert_eq!(after, text.as_bytes());
        }
    }
}
