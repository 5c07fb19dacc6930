//! The core's answers in a shape's own words. The core names its own tools
//! and arguments (`read`, `edit`, `old_string`, `offset=`…); a model
//! holding the text editor or the MCP filesystem tools has other names for
//! the same steps, and an answer that names a tool it does not have costs
//! it a turn. So each of those shapes passes the core's answers through its
//! dialect: the phrases that name a core tool or argument become the
//! shape's, and the machine-readable `next_call` becomes a call of the
//! shape's own tool.

use serde_json::{Value, json};

use crate::answers::result::{Block, ToolResult};

/// The text editor's words for the core's, applied in order.
const TEXT_EDITOR: &[(&str, &str)] = &[
    ("text from read offset=", "text from offset="),
    ("with edit or write", "with str_replace or create"),
    ("copied from read output", "copied from view output"),
    ("redo the undo", "redo the undo_edit"),
    (
        "fix it with another edit, or take the change back with undo",
        "fix it with another str_replace, or take the change back with undo_edit",
    ),
    ("you have not read ", "you have not viewed "),
    ("A read describes it", "A view describes it"),
    ("never counts as read", "never counts as viewed"),
    ("since you read it", "since you viewed it"),
    (
        "read it (any part) first, then edit",
        "view it (any part) first, then send the command again",
    ),
    ("read it first", "view it first"),
    ("Read it again", "View it again"),
    ("Read it and edit it", "View it and str_replace"),
    ("Read the rest first", "View the rest first"),
    ("Read the file", "View the file"),
    ("as read displays them", "as view displays them"),
    (
        "is read's \"unchanged\" notice",
        "is view's \"unchanged\" notice",
    ),
    ("that read shows as", "that view shows as"),
    ("redo the edit", "redo the str_replace"),
    ("redo the write", "redo the create"),
    (
        "make the change with edit",
        "make the change with str_replace",
    ),
    (
        "change parts of it with edit",
        "change parts of it with str_replace",
    ),
    (
        "replace it whole with write",
        "replace it whole with create",
    ),
    (
        "Replace it whole with write",
        "Replace it whole with create",
    ),
    ("use write, or edit with an empty old_string", "use create"),
    ("or use write to replace", "or use create to replace"),
    ("Write it again", "Create it again"),
    ("old_string", "old_str"),
    ("new_string", "new_str"),
    ("read a file by its path", "view a file by its path"),
    // Notices of a view: the text editor names lines by
    // view_range only, and has no way to show part of a line.
    ("; offset ", "; view_range start "),
    ("use an offset from 1 to", "use a start from 1 to"),
    (
        "read any range with offset and limit",
        "view any range with view_range [start, end]",
    ),
    (
        "offset=FIRST and limit=LAST-FIRST+1",
        "view_range [FIRST, LAST]",
    ),
    (
        "; each marker gives the offset and char_offset that show the rest",
        "; view does not show the rest of a cut line",
    ),
    (
        " Read a smaller part of it (offset and limit, or pages for a PDF).",
        " View a smaller part of it with view_range.",
    ),
    ("bad byte at offset ", "bad byte at byte "),
    ("bytes at offset ", "bytes from byte "),
];

/// The MCP filesystem tools' words for the core's, applied in order.
const MCP_FILESYSTEM: &[(&str, &str)] = &[
    ("text from read offset=", "text from read_text_file offset="),
    ("with edit or write", "with edit_file or write_file"),
    (
        "read it (any part) first, then edit",
        "read it (any part) with read_text_file first, then edit_file",
    ),
    ("read it first", "read it with read_text_file first"),
    ("redo the edit", "redo the edit_file"),
    ("redo the write", "redo the write_file"),
    (
        "make the change with edit",
        "make the change with edit_file",
    ),
    (
        "change parts of it with edit",
        "change parts of it with edit_file",
    ),
    (
        "replace it whole with write",
        "replace it whole with write_file",
    ),
    (
        "Replace it whole with write",
        "Replace it whole with write_file",
    ),
    (
        "use write, or edit with an empty old_string",
        "use write_file",
    ),
    ("or use write to replace", "or use write_file to replace"),
    ("Write it again", "Write it again with write_file"),
    (
        "fix it with another edit, or take the change back with undo",
        "fix it with another edit_file",
    ),
    ("old_string", "oldText"),
    ("new_string", "newText"),
    (
        "read a file by its path",
        "read a file by its path with read_text_file",
    ),
    (
        "offset=FIRST and limit=LAST-FIRST+1",
        "offset=FIRST and head=LAST-FIRST+1",
    ),
];

/// A shape's words for the core's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// `str_replace_based_edit_tool`.
    TextEditor,
    /// The MCP filesystem tools.
    McpFilesystem,
}

impl Dialect {
    /// Phrase replacements, applied in order.
    fn phrases(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Dialect::TextEditor => TEXT_EDITOR,
            Dialect::McpFilesystem => MCP_FILESYSTEM,
        }
    }

    /// `text` in this dialect.
    pub fn say(self, text: &str) -> String {
        let mut out = self
            .phrases()
            .iter()
            .fold(without_encoding(text), |t, (from, to)| t.replace(from, to));
        out = without_replace_all(&out);
        out = without_symbol(&out);
        if self == Dialect::TextEditor {
            out =
                without_char_offset(&out).replace("Read an entry's lines", "View an entry's lines");
        }
        ranges(&out, self)
    }

    /// The call that moves the model forward, as this shape makes it.
    fn next_call(self, call: &Value) -> Value {
        let args = &call["args"];
        let path = args["file_path"].clone();
        let offset = args["offset"].as_u64();
        let limit = args["limit"].as_u64();
        match self {
            Dialect::TextEditor => {
                let mut args = json!({"command": "view", "path": path});
                if let Some(first) = offset {
                    let last = limit.map_or(-1, |l| {
                        i64::try_from(first.saturating_add(l).saturating_sub(1)).unwrap_or(-1)
                    });
                    args["view_range"] = json!([first, last]);
                }
                json!({"tool": super::text_editor::NAME, "args": args})
            }
            Dialect::McpFilesystem => {
                let mut args = json!({"path": path});
                if let Some(first) = offset {
                    args["offset"] = json!(first);
                }
                if let Some(count) = limit {
                    args["head"] = json!(count);
                }
                json!({"tool": "read_text_file", "args": args})
            }
        }
    }

    /// [`Dialect::say`] for every run of lines between the file's
    /// numbered lines, which stay as they are.
    fn say_around_content(self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut sentences = String::new();
        for line in text.split_inclusive('\n') {
            if is_file_line(line) {
                if !sentences.is_empty() {
                    out.push_str(&self.say(&sentences));
                    sentences.clear();
                }
                // A line cut short ends with the pager's marker, which is
                // a sentence of ours.
                let (text, marker) = match line.rfind(CUT_MARKER) {
                    Some(at) if line[at..].contains("; rest: ") => line.split_at(at),
                    _ => (line, ""),
                };
                out.push_str(text);
                out.push_str(&self.say(marker));
            } else {
                sentences.push_str(line);
            }
        }
        if !sentences.is_empty() {
            out.push_str(&self.say(&sentences));
        }
        out
    }

    /// `result` in this dialect: its sentences, never the file's text. A
    /// numbered line (`N<tab>…`, as a view or an edit's snippet shows the
    /// file) stays byte for byte; the lines around it are translated.
    pub fn translate(self, mut result: ToolResult) -> ToolResult {
        for block in &mut result.content {
            if let Block::Text(text) = block {
                *text = self.say_around_content(text);
            }
        }
        if let Some(call) = result.metadata.get("next_call").cloned()
            && call.is_object()
        {
            result.metadata["next_call"] = self.next_call(&call);
        }
        result
    }
}

/// How the pager's marker on a line cut short begins.
const CUT_MARKER: &str = " [… ";

/// Whether `line` is a line of the file as views show it: its number, a
/// tab, its text.
fn is_file_line(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && line.as_bytes().get(digits) == Some(&b'\t')
}

/// `text` without the advice to set `replace_all`, which these shapes do
/// not have.
fn without_replace_all(text: &str) -> String {
    const ADVICE: &str = ", or set replace_all to change all ";
    let Some(at) = text.find(ADVICE) else {
        return text.to_owned();
    };
    let rest = &text[at + ADVICE.len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    format!("{}{}", &text[..at], &rest[digits..])
}

/// `text` without the advice to read an outline entry by `symbol`, which
/// these shapes' reads do not take: the advice on lines stays.
fn without_symbol(text: &str) -> String {
    const LINES: &str = "; or its lines with";
    let Some(at) = text.find(crate::answers::notice::SYMBOL_ADVICE) else {
        return text.to_owned();
    };
    let Some(end) = text[at..].find(LINES) else {
        return text.to_owned();
    };
    format!(
        "{}. Read an entry's lines with{}",
        &text[..at],
        &text[at + end + LINES.len()..]
    )
}

/// `text` without the advice to name an `encoding`, which these shapes'
/// tools do not take: a file whose encoding is a guess stays as it is.
fn without_encoding(text: &str) -> String {
    const CUTS: [(&str, &str, &str); 5] = [
        (
            "; if the file is in another encoding, read it with encoding=",
            "\"…\"]",
            "]",
        ),
        (
            " If it is in another encoding, read and edit it with encoding=",
            "\"…\".",
            "",
        ),
        (
            " Read it with encoding=",
            "the file keeps that encoding.",
            " These tools cannot name an encoding, so it is left as it is.",
        ),
        (
            " Read it with encoding=",
            "the same encoding argument]",
            " It cannot be changed with these tools]",
        ),
        (
            ", or convert the file by writing it whole with encoding=",
            "\".",
            ".",
        ),
    ];
    let mut out = text.to_owned();
    for (start, end, instead) in CUTS {
        if let Some(at) = out.find(start)
            && let Some(len) = out[at..].find(end)
        {
            out.replace_range(at..at + len + end.len(), instead);
        }
    }
    out
}

/// `text` without the `char_offset` the text editor's `view` does not
/// take: a cut line's marker keeps its count of characters shown, and a
/// way on inside a line (`offset=K, char_offset=C`) becomes the line after
/// it, the nearest place `view` can show.
fn without_char_offset(text: &str) -> String {
    const REST: &str = "; rest: offset=";
    const INSIDE: &str = ", char_offset=";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(REST) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match rest.find(']') {
            Some(end) => rest = &rest[end..],
            None => break,
        }
    }
    out.push_str(rest);
    let mut text = out;
    while let Some(at) = text.find(INSIDE) {
        let digits = text[at + INSIDE.len()..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let head = &text[..at];
        let line_digits = head.bytes().rev().take_while(u8::is_ascii_digit).count();
        let line = head[head.len() - line_digits..].parse::<u64>().ok();
        let next = match line {
            Some(line) if head[..head.len() - line_digits].ends_with("offset=") => {
                format!(
                    "{}{}",
                    &head[..head.len() - line_digits],
                    line.saturating_add(1)
                )
            }
            _ => head.to_owned(),
        };
        text = format!("{next}{}", &text[at + INSIDE.len() + digits..]);
    }
    text
}

/// `text` with the core's `offset=A, limit=B` and `offset=N` spelled as
/// the dialect's arguments.
fn ranges(text: &str, dialect: Dialect) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("offset=") {
        let (before, after) = rest.split_at(at);
        // `char_offset=` is not a line offset: keep it as it is.
        if before.ends_with("char_") {
            out.push_str(before);
            out.push_str("offset=");
            rest = &after["offset=".len()..];
            continue;
        }
        out.push_str(before);
        let after = &after["offset=".len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let Ok(first) = after[..digits].parse::<u64>() else {
            out.push_str("offset=");
            rest = after;
            continue;
        };
        let tail = &after[digits..];
        let joint = [", limit=", " limit="]
            .into_iter()
            .find(|joint| tail.starts_with(joint))
            .unwrap_or_default();
        let limit = (!joint.is_empty())
            .then_some(&tail[joint.len()..])
            .and_then(|t| {
                let n = t.bytes().take_while(u8::is_ascii_digit).count();
                t[..n].parse::<u64>().ok().map(|l| (l, n))
            });
        let (said, used) = match (dialect, limit) {
            (Dialect::TextEditor, Some((l, n))) => (
                format!(
                    "view_range [{first}, {}]",
                    first.saturating_add(l.max(1) - 1)
                ),
                joint.len() + n,
            ),
            (Dialect::TextEditor, None) => (format!("view_range [{first}, -1]"), 0),
            (Dialect::McpFilesystem, Some((l, n))) => {
                (format!("offset={first}, head={l}"), joint.len() + n)
            }
            (Dialect::McpFilesystem, None) => (format!("offset={first}"), 0),
        };
        out.push_str(&said);
        rest = &tail[used..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_become_the_shapes_arguments() {
        let text = "Copy the exact text from read offset=3, limit=2. [continue with offset=9] char_offset=17";
        assert_eq!(
            Dialect::TextEditor.say(text),
            "Copy the exact text from view_range [3, 4]. [continue with view_range [9, -1]] char_offset=17"
        );
        assert_eq!(
            Dialect::McpFilesystem.say(text),
            "Copy the exact text from read_text_file offset=3, head=2. [continue with offset=9] char_offset=17"
        );
    }

    /// One refusal of every kind, with every tool that can meet it.
    #[expect(clippy::too_many_lines, reason = "one entry per kind of refusal")]
    fn every_refusal() -> Vec<String> {
        use crate::answers::refusal::{At, Change, Nearest, Refusal, Why};
        use crate::answers::tool::Tool;
        use crate::memory::ledger::Coverage;
        let path = || "a.txt".to_owned();
        let at = At { index: 2, count: 3 };
        let mut seen = Coverage::default();
        seen.add(1, 5);
        let mut all = Vec::new();
        for tool in [Tool::Write, Tool::Edit, Tool::Undo] {
            all.push(Refusal::NotRead { path: path(), tool });
            all.push(Refusal::Conflict { path: path(), tool });
            for change in [
                Change::Content,
                Change::Deleted,
                Change::Recreated,
                Change::Modified,
            ] {
                all.push(Refusal::Stale {
                    path: path(),
                    tool,
                    change,
                });
            }
        }
        for why in [
            Why::Indentation,
            Why::TrailingSpace,
            Why::Spacing,
            Why::LineNumbers,
            Why::Typography,
            Why::Text,
        ] {
            let nearest = Nearest {
                first: 3,
                last: 4,
                line: 4,
                why,
                file_text: "a".into(),
                old_text: "b".into(),
            };
            all.push(Refusal::NoMatch {
                path: path(),
                at,
                nearest: Some(nearest),
            });
        }
        all.extend([
            Refusal::PartialView {
                path: path(),
                seen,
                total: Some(9),
                next: 6,
            },
            Refusal::GutterContent { path: path() },
            Refusal::StubContent { path: path() },
            Refusal::TooLarge {
                path: path(),
                size: 9,
                max: 8,
            },
            Refusal::NotText {
                path: path(),
                encoding: "UTF-8",
                offset: Some(0),
            },
            Refusal::Binary {
                path: path(),
                mime: "application/vnd.sqlite3",
            },
            Refusal::EncodingUnsure {
                path: path(),
                guess: "windows-1252",
                plausible: vec!["Shift_JIS"],
            },
            Refusal::Unmappable {
                path: path(),
                encoding: "windows-1251",
                chars: "U+65E5 '日'".to_owned(),
                line: 2,
            },
            Refusal::NoFile { path: path() },
            Refusal::FileNotEmpty {
                path: path(),
                size: 3,
            },
            Refusal::SameStrings { at },
            Refusal::NoMatch {
                path: path(),
                at,
                nearest: None,
            },
            Refusal::Ambiguous {
                path: path(),
                at,
                count: 2,
                lines: vec![1, 5],
                tolerant: false,
            },
            Refusal::Ambiguous {
                path: path(),
                at,
                count: 2,
                lines: vec![1, 5],
                tolerant: true,
            },
            Refusal::PartlyApplied {
                path: path(),
                at,
                line: 3,
            },
            Refusal::NothingToUndo { path: path() },
            Refusal::UndoNotKept {
                path: path(),
                size: 3,
            },
        ]);
        all.into_iter().map(|r| r.to_string()).collect()
    }

    #[test]
    fn no_refusal_names_an_argument_or_step_the_shape_does_not_have() {
        let shared = [
            "old_string",
            "new_string",
            "replace_all",
            "limit=",
            "encoding=",
        ];
        let editor_only = [
            "read it",
            "Read it",
            "Read the",
            "then edit",
            "with edit",
            "with write",
            "use write",
            "redo the edit",
            "redo the write",
        ];
        for text in every_refusal() {
            let said = Dialect::TextEditor.say(&text);
            for word in shared.iter().chain(&editor_only) {
                assert!(!said.contains(word), "text editor: {word:?} in {said:?}");
            }
            let said = Dialect::McpFilesystem.say(&text);
            for word in shared {
                assert!(!said.contains(word), "MCP: {word:?} in {said:?}");
            }
        }
    }

    #[test]
    fn the_file_s_own_lines_are_never_translated() {
        let fs = crate::fs::memory::MemFs::new();
        let text = "q(offset=20 limit=10)\nspan(text, char_offset=12)\nold_string; offset 3\n";
        fs.add_file("w.txt", text.as_bytes());
        let mut s = crate::tools::session::Session::open(
            r#"{"tools": ["text-editor", "mcp-filesystem"]}"#,
            fs,
        )
        .unwrap();
        let view = s.call(
            super::super::text_editor::NAME,
            r#"{"command": "view", "path": "w.txt"}"#,
        );
        for (n, line) in text.lines().enumerate() {
            assert!(
                view.text().contains(&format!("{}\t{line}\n", n + 1)),
                "{}",
                view.text()
            );
        }
        let read = s.call("read_text_file", r#"{"path": "w.txt"}"#);
        assert!(read.text().starts_with(text), "{}", read.text());
    }

    #[test]
    fn no_text_editor_answer_speaks_of_offset_or_limit() {
        use std::fmt::Write as _;

        use crate::fs::memory::MemFs;
        use crate::tools::session::Session;
        let files = || {
            let fs = MemFs::new();
            fs.add_file("small.txt", b"a\nb\nc\n");
            let mut big = String::new();
            for n in 1..=5000 {
                let _ = writeln!(big, "line {n} of a large file with a few words on it");
            }
            fs.add_file("big.txt", big.as_bytes());
            let mut code = String::new();
            for n in 0..3000 {
                let _ = write!(
                    code,
                    "/// Doc {n}\npub fn function_{n}(x: u32) -> u32 {{\n    x + {n}\n}}\n\n"
                );
            }
            fs.add_file("big.rs", code.as_bytes());
            fs.add_file(
                "long.txt",
                format!("short\n{}\nend\n", "x".repeat(5000)).as_bytes(),
            );
            let mut wide = String::new();
            for n in 0..400 {
                let _ = writeln!(wide, "{}{n}", "word ".repeat(60));
            }
            fs.add_file("wide.txt", wide.as_bytes());
            for n in 0..150 {
                fs.add_file(&format!("dir/f{n}.txt"), b"x\n");
            }
            fs
        };
        let views = [
            json!({"path": "small.txt", "view_range": [10, 12]}),
            json!({"path": "small.txt", "view_range": [5, -1]}),
            json!({"path": "big.txt"}),
            json!({"path": "big.txt", "view_range": [10, 4000]}),
            json!({"path": "big.rs"}),
            json!({"path": "long.txt"}),
            json!({"path": "long.txt", "view_range": [2, 2]}),
            json!({"path": "wide.txt"}),
            json!({"path": "wide.txt", "view_range": [1, 3]}),
            json!({"path": "dir"}),
            json!({"path": "dir", "view_range": [900, -1]}),
        ];
        let mut said = Vec::new();
        for config in [
            r#"{"tools": "text-editor"}"#,
            r#"{"tools": "text-editor", "max_characters": 1500}"#,
        ] {
            let mut s = Session::open(config, files()).unwrap();
            for view in &views {
                let mut args = view.clone();
                args["command"] = json!("view");
                let result = s.call(super::super::text_editor::NAME, &args.to_string());
                said.push(result.text());
            }
        }
        said.extend(every_refusal().iter().map(|r| Dialect::TextEditor.say(r)));
        for text in &said {
            for word in ["offset", "limit", "char_offset"] {
                assert!(!text.contains(word), "{word:?} in {text}");
            }
        }
        let all = said.join("\n");
        for said in [
            "[the file has 3 lines; view_range start 10 is past the end; use a start from 1 to 3]",
            "view any range with view_range [start, end]; view_range [1, -1] pages through the text from the top]",
            "; view does not show the rest of a cut line]",
            "to fit the output budget; view does not show the rest of a cut line]",
            "View an entry's lines with view_range [FIRST, LAST], e.g. view_range [2, 4] for function_0;",
        ] {
            assert!(all.contains(said), "{said:?} not said");
        }
    }

    #[test]
    fn a_way_on_inside_a_line_becomes_the_next_line_for_the_text_editor() {
        assert_eq!(
            Dialect::TextEditor.say("x [… 2000 of 9000 chars; rest: offset=7, char_offset=2001]"),
            "x [… 2000 of 9000 chars]"
        );
        assert_eq!(
            Dialect::TextEditor
                .say("[line 1, chars 1-10 of 90; continue with offset=1, char_offset=11]"),
            "[line 1, chars 1-10 of 90; continue with view_range [2, -1]]"
        );
    }

    #[test]
    fn advice_about_arguments_the_shape_lacks_is_dropped() {
        let text = "Error: old_string occurs 2 times in a (lines 1, 3); add surrounding lines so it matches one place, or set replace_all to change all 2.";
        assert_eq!(
            Dialect::TextEditor.say(text),
            "Error: old_str occurs 2 times in a (lines 1, 3); add surrounding lines so it matches one place."
        );
    }

    #[test]
    fn a_guessed_encoding_is_said_without_the_argument() {
        let notice = crate::answers::notice::Notice::Decoded {
            encoding: "windows-1252",
            how: crate::answers::notice::Decoding::Guessed(vec!["Shift_JIS"]),
        };
        assert_eq!(
            Dialect::McpFilesystem.say(&notice.to_string()),
            "[decoded as windows-1252, a guess (it could also be Shift_JIS): the file is not UTF-8. It cannot be changed with these tools]"
        );
        assert_eq!(
            Dialect::TextEditor.say(&crate::answers::notice::Notice::Lossy("UTF-8").to_string()),
            "[invalid UTF-8 bytes are shown as U+FFFD]"
        );
    }

    #[test]
    fn the_syntax_note_names_the_shapes_way_back() {
        let note = crate::answers::syntax_note::SyntaxNote::Broke {
            language: "rust",
            errors: vec![filetools_code_types::SyntaxError {
                line: 5,
                message: "unexpected '}'".to_owned(),
            }],
        }
        .to_string();
        assert!(
            Dialect::TextEditor.say(&note).ends_with(
                "fix it with another str_replace, or take the change back with undo_edit."
            )
        );
        assert!(
            Dialect::McpFilesystem
                .say(&note)
                .ends_with("fix it with another edit_file.")
        );
    }

    #[test]
    fn the_next_call_is_the_shapes_own() {
        let call = json!({"tool": "read", "args": {"file_path": "a.txt", "offset": 5, "limit": 3}});
        assert_eq!(
            Dialect::TextEditor.next_call(&call),
            json!({"tool": "str_replace_based_edit_tool", "args": {"command": "view", "path": "a.txt", "view_range": [5, 7]}})
        );
        assert_eq!(
            Dialect::McpFilesystem.next_call(&call),
            json!({"tool": "read_text_file", "args": {"path": "a.txt", "offset": 5, "head": 3}})
        );
    }
}
