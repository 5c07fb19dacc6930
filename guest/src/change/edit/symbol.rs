//! `edit` by symbol (SPEC Y1): an outline entry, named as `read` names it
//! (`Decimal.__new__`, `Ledger::book`), replaced whole, deleted, or given
//! new lines before or after it — without the model reproducing its text.
//! The entry's lines must all have been shown in this session (a `read` of
//! the symbol shows them), or `expect` name the file's version; a name that
//! fits several entries, or none, is refused with the candidates. The change
//! then goes the way of every edit: the syntax check, the merge with what
//! changed on disk since the model's view, the history `undo` takes back.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("m.py", b"def a():\n    return 1\n\ndef b():\n    return 2\n");
//! let mut session = Session::open("{}", fs).unwrap();
//! session.call("read", r#"{"file_path": "m.py", "symbol": "a"}"#);
//! let result = session.call("edit", r#"{"file_path": "m.py", "symbol": "a", "new_string": "def a():\n    return 10"}"#);
//! # #[cfg(feature = "lang-python")]
//! assert!(result.text().starts_with("Replaced \"a\" in m.py (lines 1-2, now lines 1-2); the file has 5 lines."));
//! ```

use super::view::{LineIndex, View};
use super::{Applied, save};
use crate::answers::error::ToolError;
use crate::answers::error::symbol::SymbolError;
use crate::answers::refusal::Refusal;
use crate::answers::report::{Report, SymbolChange};
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::{EditOp, Placement, SymbolEditArgs, checked_version};
use crate::change::context::Ctx;
use crate::change::guard;
use crate::change::rewrite::{self, Loaded, Seen};
use crate::change::write::answer;
use crate::config::Config;
use crate::fs::host::HostFs;
use crate::memory::ledger::Record;
use crate::paths::repair::Target;
use crate::text::textfile::line_count;
use crate::view::outline::named::{Named, SEPARATOR, all, named, outline_of};
use crate::view::outline::{Language, Symbol};

/// Runs `edit` by symbol on `target`, the repaired path.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &SymbolEditArgs,
    target: &Target,
) -> Result<ToolResult, ToolError> {
    let path = args.file_path.as_str();
    let rel = target.rel.as_str();
    let expect = checked_version(Tool::Edit, args.expect.as_deref())?;
    let Some(meta) = guard::target_kind(&target.stat, path)? else {
        return Err(match expect {
            Some(expected) => Refusal::absent(path, Tool::Edit, expected),
            None => Refusal::NoFile { path: path.into() },
        }
        .into());
    };
    let loaded = rewrite::load(ctx, rel, path, meta, Tool::Edit, (Seen::Required, expect))?;
    let text = args.new_string.replace("\r\n", "\n");
    // The edit as the session remembers it, to know it when sent again.
    let op = EditOp {
        old_string: format!("\0symbol {} {}", args.position.word(), args.symbol),
        new_string: text.clone(),
        replace_all: false,
    };
    let key = [(op.old_string.clone(), op.new_string.clone(), false)];
    if let Some(line) = ctx.state.made_edit(rel, loaded.current.fingerprint, &key) {
        let report = Report::SymbolRepeated {
            path: path.to_owned(),
            name: args.symbol.clone(),
            line,
        };
        return Ok(nothing_written(ctx.config, &loaded, &report));
    }
    let view = View::counted(&loaded.file.text, loaded.file.newlines);
    let (entry, whole) = located(ctx.config, &loaded, args, &view.text, expect.is_some())?;
    let index = LineIndex::new(&view.text);
    let (start, end) = index.lines_span(view.text.len(), whole.start, whole.end);
    let Some(change) = placed(
        &view.text[start..end],
        (start, end),
        &whole,
        args.position,
        text,
    ) else {
        let report = Report::SymbolUnchanged {
            path: path.to_owned(),
            name: entry.name.clone(),
            at: (entry.start, entry.end),
        };
        return Ok(nothing_written(ctx.config, &loaded, &report));
    };
    let Loaded {
        current,
        file,
        record,
        ..
    } = &loaded;
    let mut seen = record.as_ref().map(|r| r.seen.clone()).unwrap_or_default();
    seen.replace(change.first, change.removed, change.added);
    let mut view = view;
    let mut regions = Vec::new();
    let placed = view.replace(
        &[change.span],
        &[change.with],
        file.style.crlf_dominant,
        &mut regions,
    );
    let applied = Applied {
        view,
        regions: placed,
        notes: Vec::new(),
        replacements: 1,
        seen,
        already: Vec::new(),
    };
    let new_text = applied.view.file_text();
    let merged = loaded.land(ctx, &new_text, Tool::Edit)?;
    let full = record.as_ref().is_some_and(Record::full);
    let now = (change.added > 0).then_some((change.first, change.added));
    let result = save(
        ctx,
        rel,
        path,
        (current, file, &new_text),
        (full, merged.as_ref()),
        &applied,
        &[op],
        &|_, lines, snippet| Report::SymbolEdited {
            path: path.to_owned(),
            name: entry.name.clone(),
            how: change.how,
            was: (whole.start, whole.end),
            now,
            lines,
            snippet,
        },
    )?;
    Ok(match merged {
        Some(merged) => result.prefixed(&merged.note(path)),
        None => result,
    })
}

/// The answer to an edit by symbol that writes nothing: `report`.
fn nothing_written(config: &Config, loaded: &Loaded, report: &Report) -> ToolResult {
    let lines = line_count(&loaded.file.text);
    let (rel, size) = (loaded.rel.as_str(), loaded.current.len);
    answer(config, report, rel, "already_applied", lines, size)
}

/// The entry `args` names in `text` (the file's LF view), refused when it
/// shares a line with another or, unless `expect` was given, has lines the
/// model was not shown; and the lines the change covers: its attributes,
/// decorators and doc comments too when text goes before it or it goes.
fn located(
    config: &Config,
    loaded: &Loaded,
    args: &SymbolEditArgs,
    text: &str,
    expected: bool,
) -> Result<(Named, Named), ToolError> {
    let path = loaded.path.as_str();
    let (language, symbols) = outline_of(config, (path, Tool::Edit), &loaded.rel, text)?;
    let entry = named(&symbols, path, &args.symbol).map_err(ToolError::Symbol)?;
    alone_on_its_lines(&symbols, path, &entry)?;
    if !expected {
        seen_whole(config, loaded, &entry, &args.symbol)?;
    }
    let keeps_its_place = args.position == Placement::After
        || (args.position == Placement::Replace && !args.new_string.is_empty());
    let above = if keeps_its_place {
        entry.start
    } else {
        attached_above(text, &LineIndex::new(text), language, entry.start)
    };
    let whole = Named {
        start: above,
        ..entry.clone()
    };
    Ok((entry, whole))
}

/// Refuses an edit of `entry` whose lines the model has not all been
/// shown: in the file as it is, or, when it changed since the model's
/// view, in that view.
fn seen_whole(
    config: &Config,
    loaded: &Loaded,
    entry: &Named,
    asked: &str,
) -> Result<(), ToolError> {
    let unseen = |gap| {
        ToolError::Symbol(SymbolError::Unseen {
            path: loaded.path.clone(),
            name: entry.name.clone(),
            first: entry.start,
            last: entry.end,
            gap,
            asked: asked.to_owned(),
        })
    };
    let (coverage, first, last) = match (&loaded.behind, &loaded.record) {
        (Some(behind), _) => {
            let viewed = View::new(&behind.view);
            let (_, symbols) = outline_of(
                config,
                (&loaded.path, Tool::Edit),
                &loaded.rel,
                &viewed.text,
            )?;
            // An entry the view did not hold was never shown.
            let Ok(seen) = named(&symbols, &loaded.path, asked) else {
                return Err(unseen(entry.start));
            };
            (&behind.record.seen, seen.start, seen.end)
        }
        (None, Some(record)) => (&record.seen, entry.start, entry.end),
        (None, None) => return Err(unseen(entry.start)),
    };
    match coverage.first_gap_in(first, last) {
        Some(gap) => Err(unseen(gap - first + entry.start)),
        None => Ok(()),
    }
}

/// Refuses an edit of `entry` when another entry, neither inside it nor
/// around it, has a line in common with it: replacing its lines would take
/// the other's part of that line too.
fn alone_on_its_lines(symbols: &[Symbol], path: &str, entry: &Named) -> Result<(), ToolError> {
    let within = |inner: &str, outer: &str| {
        inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.starts_with(SEPARATOR))
    };
    let shared = all(symbols).into_iter().find(|other| {
        other.name != entry.name
            && !within(&other.name, &entry.name)
            && !within(&entry.name, &other.name)
            && other.start <= entry.end
            && entry.start <= other.end
    });
    match shared {
        Some(other) => Err(ToolError::Symbol(SymbolError::SharedLine {
            path: path.to_owned(),
            line: other.start.max(entry.start),
            name: entry.name.clone(),
            other: other.name,
        })),
        None => Ok(()),
    }
}

/// The first line of the lines right above line `start` that belong to
/// the entry there, in `language`: its attributes, decorators and doc
/// comments, with no blank line between.
fn attached_above(text: &str, index: &LineIndex, language: Language, start: u64) -> u64 {
    let marks: &[&str] = match language {
        Language::Rust => &["#[", "///", "//"],
        Language::Python => &["@", "#"],
        Language::JavaScript
        | Language::TypeScript
        | Language::Tsx
        | Language::Java
        | Language::Go
        | Language::C
        | Language::Cpp => &["@", "//", "/*", "*"],
        _ => &[],
    };
    let mut first = start;
    while first > 1 {
        let line = index.line(text, first - 1).trim_start();
        if line.is_empty() || !marks.iter().any(|mark| line.starts_with(mark)) {
            break;
        }
        first -= 1;
    }
    first
}

/// One change of an entry's lines: the span of the LF view it replaces,
/// the text put there, and its effect on the lines.
struct Change {
    how: SymbolChange,
    span: (usize, usize),
    with: String,
    /// The first line the change touches, the lines it removes from there
    /// and the lines it adds.
    first: u64,
    removed: u64,
    added: u64,
}

/// The change that puts `text` at `position` of `entry`, whose lines are
/// `old` at `span` of the view; none when it would change nothing.
fn placed(
    old: &str,
    (start, end): (usize, usize),
    entry: &Named,
    position: Placement,
    text: String,
) -> Option<Change> {
    let ends_line = old.ends_with('\n');
    let lines_of = |with: &str| -> u64 {
        (with.matches('\n').count() + usize::from(!with.is_empty() && !with.ends_with('\n'))) as u64
    };
    let own_lines = |mut with: String| {
        if !with.ends_with('\n') {
            with.push('\n');
        }
        with
    };
    let change = match position {
        Placement::Replace => {
            let with = if !text.is_empty() && ends_line {
                own_lines(text)
            } else {
                text
            };
            if with == old {
                return None;
            }
            Change {
                how: if with.is_empty() {
                    SymbolChange::Deleted
                } else {
                    SymbolChange::Replaced
                },
                span: (start, end),
                first: entry.start,
                removed: entry.end - entry.start + 1,
                added: lines_of(&with),
                with,
            }
        }
        Placement::Before => {
            let with = own_lines(text);
            Change {
                how: SymbolChange::Before,
                span: (start, start),
                first: entry.start,
                removed: 0,
                added: lines_of(&with),
                with,
            }
        }
        Placement::After => {
            // After a last line without a line end, the line end goes first.
            let with = if ends_line {
                own_lines(text)
            } else {
                format!("\n{}", text.trim_end_matches('\n'))
            };
            Change {
                how: SymbolChange::After,
                span: (end, end),
                first: entry.end + 1,
                removed: 0,
                added: with.matches('\n').count() as u64,
                with,
            }
        }
    };
    Some(change)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    fn entry(start: u64, end: u64) -> Named {
        Named {
            name: "f".to_owned(),
            start,
            end,
        }
    }

    #[test]
    fn text_after_a_last_line_without_a_line_end_starts_a_line_of_its_own() {
        let change =
            placed("end", (4, 7), &entry(2, 2), Placement::After, "x\n".into()).expect("a change");
        assert_eq!((change.span, change.with.as_str()), ((7, 7), "\nx"));
        assert_eq!((change.first, change.removed, change.added), (3, 0, 1));
        let before = placed(
            "f()\n",
            (0, 4),
            &entry(1, 1),
            Placement::Before,
            "g()".into(),
        )
        .expect("a change");
        assert_eq!((before.with.as_str(), before.added), ("g()\n", 1));
    }

    #[test]
    fn a_replacement_keeps_the_entry_on_lines_of_its_own_and_an_empty_one_deletes_it() {
        let replaced = placed(
            "f()\n",
            (0, 4),
            &entry(1, 1),
            Placement::Replace,
            "h()".into(),
        )
        .expect("a change");
        assert_eq!(
            (replaced.with.as_str(), replaced.how),
            ("h()\n", SymbolChange::Replaced)
        );
        let deleted = placed(
            "f()\n",
            (0, 4),
            &entry(1, 1),
            Placement::Replace,
            String::new(),
        )
        .expect("a change");
        assert_eq!((deleted.added, deleted.how), (0, SymbolChange::Deleted));
        assert!(
            placed(
                "f()\n",
                (0, 4),
                &entry(1, 1),
                Placement::Replace,
                "f()".into()
            )
            .is_none()
        );
    }

    #[test]
    fn text_after_a_last_line_without_a_line_end_counts_the_lines_it_adds() {
        let change = placed(
            "end",
            (4, 7),
            &entry(2, 2),
            Placement::After,
            "b\nc\n\n".into(),
        )
        .expect("a change");
        assert_eq!((change.with.as_str(), change.added), ("\nb\nc", 2));
    }

    fn session_over(name: &str, text: &str) -> Session<MemFs> {
        let fs = MemFs::new();
        fs.add_file(name, text.as_bytes());
        let mut session = Session::open("{}", fs).unwrap();
        session.call("read", &format!(r#"{{"file_path": "{name}"}}"#));
        session
    }

    #[cfg(feature = "lang-python")]
    #[test]
    fn decorators_go_with_their_entry_and_stay_above_what_goes_before_it() {
        let text = "class C:\n    @property\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n";
        let mut session = session_over("c.py", text);
        let before = session.call(
            "edit",
            r#"{"file_path": "c.py", "symbol": "C.a", "position": "before", "new_string": "    def z(self):\n        return 0\n"}"#,
        );
        assert!(!before.is_error, "{}", before.text());
        assert_eq!(
            session.fs().contents("c.py").unwrap(),
            b"class C:\n    def z(self):\n        return 0\n    @property\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n"
        );
        let deleted = session.call(
            "edit",
            r#"{"file_path": "c.py", "symbol": "C.a", "new_string": ""}"#,
        );
        assert!(
            deleted
                .text()
                .starts_with("Deleted \"C.a\" from c.py (lines 4-6)"),
            "{}",
            deleted.text()
        );
        assert_eq!(
            session.fs().contents("c.py").unwrap(),
            b"class C:\n    def z(self):\n        return 0\n\n    def b(self):\n        return 2\n"
        );
    }

    #[test]
    fn an_entry_sharing_a_line_with_another_is_refused_and_a_file_without_outline_says_edit() {
        let mut session = session_over("a.json", "{\n  \"a\": 1, \"b\": 2,\n  \"c\": 3\n}\n");
        let shared = session.call(
            "edit",
            r#"{"file_path": "a.json", "symbol": "a", "new_string": "  \"a\": 5,"}"#,
        );
        assert_eq!(
            shared.text(),
            "Error: \"a\" shares line 2 of a.json with \"b\", and an edit by symbol replaces whole lines; edit it with old_string instead."
        );
        let mut plain = session_over("a.txt", "one\n");
        let refused = plain.call(
            "edit",
            r#"{"file_path": "a.txt", "symbol": "x", "new_string": "y"}"#,
        );
        assert!(
            refused.text().ends_with("edit it with old_string instead."),
            "{}",
            refused.text()
        );
    }

    #[cfg(feature = "lang-rust")]
    #[test]
    fn a_method_of_a_trait_impl_is_found_in_the_view_when_the_file_moved() {
        let text =
            "struct R;\n\nimpl fmt::Display for R {\n    fn fmt(&self) {\n        1\n    }\n}\n";
        let mut session = session_over("m.rs", text);
        let moved = format!("// top\n{text}");
        session.fs().add_file("m.rs", moved.as_bytes());
        let edit = session.call(
            "edit",
            r#"{"file_path": "m.rs", "symbol": "R.fmt", "new_string": "    fn fmt(&self) {\n        2\n    }"}"#,
        );
        assert!(!edit.is_error, "{}", edit.text());
        assert!(
            String::from_utf8(session.fs().contents("m.rs").unwrap())
                .unwrap()
                .contains("        2\n")
        );
    }

    #[cfg(feature = "lang-rust")]
    #[test]
    fn an_edit_by_symbol_is_taken_back_by_one_undo_and_keeps_crlf() {
        let fs = MemFs::new();
        let original = "fn a() {\r\n    1\r\n}\r\n\r\nfn b() {\r\n    2\r\n}\r\n";
        fs.add_file("m.rs", original.as_bytes());
        let mut session = Session::open("{}", fs).unwrap();
        session.call("read", r#"{"file_path": "m.rs", "symbol": "b"}"#);
        let result = session.call(
            "edit",
            r#"{"file_path": "m.rs", "symbol": "b", "new_string": "fn b() {\n    20\n}"}"#,
        );
        assert!(!result.is_error, "{}", result.text());
        assert_eq!(
            session.fs().contents("m.rs").unwrap(),
            b"fn a() {\r\n    1\r\n}\r\n\r\nfn b() {\r\n    20\r\n}\r\n"
        );
        // Lines the model has not read are refused.
        let unseen = session.call(
            "edit",
            r#"{"file_path": "m.rs", "symbol": "a", "position": "after", "new_string": "fn c() {}"}"#,
        );
        assert_eq!(unseen.metadata["error"], "not_read", "{}", unseen.text());
        session.call("undo", r#"{"file_path": "m.rs"}"#);
        assert_eq!(session.fs().contents("m.rs").unwrap(), original.as_bytes());
    }
}
