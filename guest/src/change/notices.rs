//! Change notices (SPEC K2): of the files the model has seen, those that
//! changed on disk since its view, each with its changed lines as they are
//! now, numbered, for the harness to put before the model at the start of
//! a turn (or, with `change_notices: "note"`, at the head of every answer).
//! The lines shown count as seen, and the session's view becomes the file
//! now, as when a stale edit is answered with what changed. A file is
//! looked at by its size and time first: a change that keeps both is told
//! when the model next touches the file. The notice takes at most a
//! quarter of the output budget; files past it are named, and told in full
//! when next touched.

use crate::answers::changes::ChangeNotice;
use crate::change::basis::{caught_up, version_of};
use crate::change::context::Ctx;
use crate::change::guard;
use crate::change::since::Since;
use crate::fs::host::{FileKind, FsError, HostFs};
use crate::text::textfile::TextFile;

/// Part of the output budget a notice may take: one in this many bytes.
const BUDGET_SHARE: u64 = 4;

/// What changed of the files the session has seen, the session caught up
/// with what it shows.
pub(crate) fn gather<F: HostFs + ?Sized>(ctx: &mut Ctx<'_, F>) -> ChangeNotice {
    let budget = usize::try_from(ctx.config.budget_bytes() / BUDGET_SHARE).unwrap_or(usize::MAX);
    let mut notice = ChangeNotice::default();
    let mut used = 0;
    for rel in ctx.state.ledger.paths() {
        let Some(record) = ctx.state.ledger.get(&rel).cloned() else {
            continue;
        };
        let meta = match ctx.fs.stat(&rel) {
            Ok(meta) => meta,
            Err(FsError::NotFound) => {
                ctx.state.ledger.remove(&rel);
                notice.removed.push(rel);
                continue;
            }
            Err(_) => continue,
        };
        if meta.kind != FileKind::File
            || (record.size == meta.size && record.mtime_ns == meta.mtime_ns)
        {
            continue;
        }
        let (chunk, keep) = (ctx.config.chunk_bytes, ctx.config.max_edit_bytes);
        let Ok(current) = guard::load(ctx.fs, &rel, &rel, meta, chunk, keep) else {
            continue;
        };
        let Some(change) = current.change_since(&record) else {
            // Touched, not changed: its new time saves the next look a read.
            if let Some(kept) = ctx.state.ledger.get_mut(&rel) {
                kept.mtime_ns = meta.mtime_ns;
            }
            continue;
        };
        let encoding = Some(record.style.encoding);
        let decode = |bytes: &[u8]| TextFile::decode_as(bytes, encoding).ok();
        let view = ctx.state.view(&rel).and_then(decode).map(|file| file.text);
        let now = current.bytes.as_deref().and_then(decode);
        let (Some(view), Some(now)) = (view, now) else {
            notice.unshown.push((rel, change));
            continue;
        };
        let since = Since::new(&view, &now.text);
        let shown = since.render(&now.text, ctx.config);
        if used + shown.text.len() > budget {
            notice.over_budget.push(rel);
            continue;
        }
        used += shown.text.len();
        caught_up(
            ctx,
            &rel,
            (&since, &shown, &record),
            &current,
            &now.text,
            now.style,
        );
        notice
            .shown
            .push((rel, version_of(&current), shown.text.trim_end().to_owned()));
    }
    notice
}

#[cfg(test)]
mod tests {
    use crate::fs::host::{HostFs as _, Precondition};
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    #[test]
    fn a_removed_file_is_told_once_and_one_without_a_view_is_described() {
        let fs = MemFs::new();
        fs.add_file("gone.txt", b"a\n");
        fs.add_file("big.txt", &b"x\n".repeat(40));
        let mut session = Session::open(r#"{"view_bytes": 0}"#, fs).unwrap();
        session.call("read", r#"{"file_path": "gone.txt"}"#);
        session.call("read", r#"{"file_path": "big.txt"}"#);
        session
            .fs()
            .remove_file("gone.txt", &Precondition::Any)
            .unwrap();
        session.fs().add_file("big.txt", &b"y\n".repeat(41));
        let told = session.changes();
        assert_eq!(
            told.text(),
            "Changed on disk since your view:\nbig.txt changed (it was 80 bytes, now 82); read it to see how.\ngone.txt was removed."
        );
        assert_eq!(told.metadata["changed_on_disk"]["removed"][0], "gone.txt");
        assert!(session.changes().text().starts_with("Changed on disk"));
    }

    #[test]
    fn files_past_the_budget_are_named_and_told_in_full_when_touched() {
        let fs = MemFs::new();
        for name in ["a.txt", "b.txt"] {
            fs.add_file(name, b"one\n");
        }
        let mut session = Session::open(r#"{"max_output_tokens": 200}"#, fs).unwrap();
        for name in ["a.txt", "b.txt"] {
            session.call("read", &format!(r#"{{"file_path": "{name}"}}"#));
            let long = format!("{}\n", "word ".repeat(30));
            session.fs().add_file(name, long.as_bytes());
        }
        let told = session.changes();
        assert!(
            told.text().contains("a.txt (now version"),
            "{}",
            told.text()
        );
        assert!(
            told.text()
                .ends_with("Also changed, left out to keep this answer short: b.txt; read them."),
            "{}",
            told.text()
        );
        // b.txt was not caught up: its next edit is told what changed.
        let edit = session.call(
            "edit",
            r#"{"file_path": "b.txt", "old_string": "one", "new_string": "two"}"#,
        );
        assert_eq!(edit.metadata["error"], "stale", "{}", edit.text());
    }
}
