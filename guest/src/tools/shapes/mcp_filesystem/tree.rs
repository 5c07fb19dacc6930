//! `list_directory`, `list_directory_with_sizes`, `directory_tree` and
//! `search_files`: walks over directories through the host, each bounded —
//! by the entries visited ([`MAX_WALK_ENTRIES`]) and by the output budget —
//! and saying so when it stops early.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use serde_json::{Value, json};

use crate::answers::error::ToolError;
use crate::answers::notice::Size;
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::context::Ctx;
use crate::fs::host::{DirEntry, FileKind, HostFs};
use crate::paths::glob::Glob;
use crate::paths::repair;
use crate::paths::walk::rules::{Narrowing, Rules};
use crate::paths::walk::{self as engine, Listing};
use crate::tools::session::Session;
use crate::tools::shapes::args::Args;

/// Entries a tree or a search visits at most.
pub const MAX_WALK_ENTRIES: usize = 20_000;

/// The directory `path` names, root-relative.
fn directory<F: HostFs + ?Sized>(ctx: &Ctx<'_, F>, path: &str) -> Result<String, ToolError> {
    let (found, meta) = repair::existing(ctx.config, ctx.fs, path, &ctx.state.repairs)?;
    if meta.kind == FileKind::Directory {
        Ok(found.rel)
    } else {
        Err(ToolError::NotDirectory {
            path: path.to_owned(),
        })
    }
}

fn is_dir(entry: &DirEntry) -> bool {
    entry.kind == FileKind::Directory
}

/// `bytes` as the reference server writes a size: whole bytes under 1 KB,
/// else two decimals of the largest unit up to TB (1 KB = 1024 bytes),
/// half-way rounded up as JavaScript's `toFixed` does.
fn reference_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    let mut unit = 0;
    while unit + 1 < UNITS.len() && bytes >> (10 * (unit + 2)) > 0 {
        unit += 1;
    }
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let scale = 1u128 << (10 * (unit + 1));
    let hundredths = (u128::from(bytes) * 200 + scale) / (2 * scale);
    format!(
        "{}.{:02} {}",
        hundredths / 100,
        hundredths % 100,
        UNITS[unit]
    )
}

/// `list_directory` and `list_directory_with_sizes`.
pub(super) fn list<F: HostFs>(session: &mut Session<F>, args: &Args, sizes: bool) -> ToolResult {
    session.run(|ctx| {
        let path = args.string("path")?;
        let by_size = match args.opt_string("sortBy")?.as_deref() {
            None | Some("name") => false,
            Some("size") => true,
            Some(other) => return Err(args.error(format!("sortBy {other:?} is not name or size"))),
        };
        let rel = directory(ctx, &path)?;
        // Names and kinds are all a listing without sizes shows: no
        // question per file to the host.
        let entries = if sizes || by_size {
            ctx.fs.list_dir(&rel)
        } else {
            ctx.fs.list_names(&rel)
        };
        let mut entries = entries.map_err(|err| ToolError::from_fs(&path, err))?;
        if by_size {
            entries.sort_by(|a, b| b.size.cmp(&a.size).then_with(|| a.name.cmp(&b.name)));
        }
        let total = entries.len();
        let shown = total.min(usize::try_from(ctx.config.max_dir_entries).unwrap_or(usize::MAX));
        let mut lines: Vec<String> = entries[..shown]
            .iter()
            .map(|e| {
                let mark = if is_dir(e) { "[DIR]" } else { "[FILE]" };
                if sizes {
                    // As the reference pads it: a directory's size column
                    // is empty.
                    let size = if is_dir(e) {
                        String::new()
                    } else {
                        reference_size(e.size)
                    };
                    format!("{mark} {:<30} {size:>10}", e.name)
                } else {
                    format!("{mark} {}", e.name)
                }
            })
            .collect();
        if shown < total {
            lines.push(format!(
                "[{shown} of {total} entries shown; narrow the listing with search_files]"
            ));
        }
        if sizes {
            let files: Vec<&DirEntry> = entries.iter().filter(|e| !is_dir(e)).collect();
            let bytes: u64 = files.iter().map(|e| e.size).sum();
            lines.push(String::new());
            lines.push(format!(
                "Total: {} files, {} directories",
                files.len(),
                total - files.len()
            ));
            lines.push(format!("Combined size: {}", reference_size(bytes)));
        }
        Ok(ToolResult::from_text(lines.join("\n"), json!({})))
    })
}

/// The exclusion patterns of a call.
fn exclusions(args: &Args) -> Result<Vec<Glob>, ToolError> {
    Ok(args
        .opt_strings("excludePatterns")?
        .unwrap_or_default()
        .iter()
        .map(|p| Glob::excluding(p))
        .collect())
}

/// A bounded walk's state, for `directory_tree`.
struct Walk<'a, F: ?Sized> {
    fs: &'a F,
    exclude: Vec<Glob>,
    visited: usize,
    stopped: bool,
}

impl<'a, F: HostFs + ?Sized> Walk<'a, F> {
    fn new(fs: &'a F, exclude: Vec<Glob>) -> Self {
        Self {
            fs,
            exclude,
            visited: 0,
            stopped: false,
        }
    }

    /// The entries of `rel` (shown as `shown`, relative to the walk's
    /// start), excluded ones left out; none once the walk stopped.
    fn entries(&mut self, rel: &str, shown: &str) -> Vec<(DirEntry, String, String)> {
        if self.stopped {
            return Vec::new();
        }
        let Ok(entries) = self.fs.list_dir(rel) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for entry in entries {
            if self.visited >= MAX_WALK_ENTRIES {
                self.stopped = true;
                break;
            }
            self.visited += 1;
            let child = join(rel, &entry.name);
            let relative = join(shown, &entry.name);
            if self.exclude.iter().any(|g| g.matches(&relative)) {
                continue;
            }
            out.push((entry, child, relative));
        }
        out
    }

    /// The tree under `rel` as the reference server's JSON.
    fn tree(&mut self, rel: &str, shown: &str) -> Value {
        let items: Vec<Value> = self
            .entries(rel, shown)
            .into_iter()
            .map(|(entry, child, relative)| {
                if is_dir(&entry) {
                    json!({"name": entry.name, "type": "directory", "children": self.tree(&child, &relative)})
                } else {
                    json!({"name": entry.name, "type": "file"})
                }
            })
            .collect();
        Value::Array(items)
    }
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() || dir == "." {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

/// What a walk that stopped early says.
fn stopped_note(visited: usize) -> String {
    format!(
        "[the walk stopped after {visited} entries; narrow it with a deeper path or excludePatterns]"
    )
}

/// `directory_tree`: the JSON tree, within the output budget.
pub(super) fn tree<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    session.run(|ctx| {
        let path = args.string("path")?;
        let exclude = exclusions(args)?;
        let rel = directory(ctx, &path)?;
        let mut walk = Walk::new(ctx.fs, exclude);
        let tree = walk.tree(&rel, "");
        let text = serde_json::to_string_pretty(&tree).unwrap_or_default();
        let budget = usize::try_from(ctx.config.budget_bytes()).unwrap_or(usize::MAX);
        let mut content = vec![];
        if text.len() > budget {
            let compact = tree.to_string();
            if compact.len() > budget {
                return Err(ToolError::Arguments {
                    tool: "directory_tree",
                    problem: format!(
                        "the tree of {path} takes {} as JSON, more than the output budget of {}",
                        Size(compact.len() as u64),
                        Size(budget as u64)
                    ),
                    takes: "{path: string, excludePatterns?: string[]}; give a deeper path or excludePatterns",
                });
            }
            content.push(compact);
        } else {
            content.push(text);
        }
        if walk.stopped {
            content.push(stopped_note(walk.visited));
        }
        let mut result = ToolResult::from_text(content.remove(0), json!({}));
        for note in content {
            result.content.push(crate::answers::result::Block::Text(note));
        }
        Ok(result)
    })
}

/// `search_files`: matching paths, one per line. It walks on the search
/// tools' engine ([`crate::paths::walk`]) with the reference's semantics:
/// no ignore rules, dot files included, every kind of path listed, its
/// `excludePatterns` left out and not entered, at most
/// [`MAX_WALK_ENTRIES`] entries.
pub(super) fn search<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    session.run(|ctx| {
        let path = args.string("path")?;
        let pattern = Glob::new(&args.string("pattern")?);
        let exclude = exclusions(args)?;
        let rel = directory(ctx, &path)?;
        let everything = Narrowing {
            no_ignore: true,
            hidden: true,
            ..Narrowing::default()
        };
        let rules = Rules::new(ctx.fs, everything, &[], &rel)
            .map_err(|err| err.for_tool(Tool::Read, "pattern"))?;
        let listing = Listing {
            exclude,
            max_entries: MAX_WALK_ENTRIES,
        };
        let mut walk = engine::Walk::new(ctx.fs, rules).listing(listing);
        let spelled = |child: &str| {
            if ctx.config.root.is_empty() {
                child.to_owned()
            } else {
                format!("{}/{child}", ctx.config.root.trim_end_matches('/'))
            }
        };
        let start = rel.clone();
        let mut found = Vec::new();
        let _ = walk.run(&rel, &mut |entry, _| {
            // A link the host will not follow (it leads outside the root,
            // or nowhere) is left out, as the reference leaves out every
            // path that fails its check.
            if entry.kind == FileKind::Symlink && ctx.fs.stat(&entry.rel).is_err() {
                return ControlFlow::Continue(());
            }
            let relative = if start == "." {
                entry.rel.as_str()
            } else {
                entry
                    .rel
                    .strip_prefix(start.as_str())
                    .and_then(|r| r.strip_prefix('/'))
                    .unwrap_or(&entry.rel)
            };
            if pattern.matches(relative) {
                found.push(spelled(&entry.rel));
            }
            ControlFlow::Continue(())
        });
        let budget = usize::try_from(ctx.config.budget_bytes()).unwrap_or(usize::MAX);
        let mut text = String::new();
        let mut shown = 0;
        for hit in &found {
            if text.len() + hit.len() + 1 > budget {
                break;
            }
            text.push_str(hit);
            text.push('\n');
            shown += 1;
        }
        if found.is_empty() {
            "No matches found".clone_into(&mut text);
        } else {
            text.pop();
        }
        if shown < found.len() {
            let _ = write!(
                text,
                "\n[{shown} of {} matches shown; narrow the pattern]",
                found.len()
            );
        }
        if walk.stopped {
            text.push('\n');
            text.push_str(&stopped_note(walk.visited));
        }
        Ok(ToolResult::from_text(text, json!({})))
    })
}

#[cfg(test)]
mod tests {
    use super::reference_size;
    use crate::fs::host::{DirEntry, FsError, HostFs, Metadata, Precondition};
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    /// A file system whose full listing (with each file's size and time)
    /// fails: only a listing by names and kinds answers.
    struct NamesOnly(MemFs);

    impl HostFs for NamesOnly {
        fn stat(&self, path: &str) -> Result<Metadata, FsError> {
            self.0.stat(path)
        }
        fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
            self.0.read(path, offset, len)
        }
        fn list_dir(&self, _: &str) -> Result<Vec<DirEntry>, FsError> {
            Err(FsError::Io("sizes asked for".into()))
        }
        fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
            let mut entries = self.0.list_dir(path)?;
            for entry in &mut entries {
                (entry.size, entry.mtime_ns) = (0, 0);
            }
            Ok(entries)
        }
        fn write_file(
            &self,
            path: &str,
            data: &[u8],
            pre: &Precondition,
        ) -> Result<Metadata, FsError> {
            self.0.write_file(path, data, pre)
        }
        fn remove_file(&self, path: &str, pre: &Precondition) -> Result<(), FsError> {
            self.0.remove_file(path, pre)
        }
        fn create_dir(&self, path: &str) -> Result<(), FsError> {
            self.0.create_dir(path)
        }
        fn rename(&self, from: &str, to: &str, pre: &Precondition) -> Result<Metadata, FsError> {
            self.0.rename(from, to, pre)
        }
    }

    #[test]
    fn a_listing_without_sizes_asks_the_host_for_names_alone() {
        let fs = MemFs::new();
        fs.add_file("src/a.txt", b"one\n");
        fs.add_file("src/lib/b.txt", b"two\n");
        let mut session = Session::open(r#"{"tools": "mcp-filesystem"}"#, NamesOnly(fs)).unwrap();
        let listed = session.call("list_directory", r#"{"path": "src"}"#);
        assert_eq!(listed.text(), "[FILE] a.txt\n[DIR] lib");
        // Sizes, shown or sorted by, are asked for.
        for call in [r#"{"path": "src"}"#, r#"{"path": "src", "sortBy": "size"}"#] {
            let sized = session.call("list_directory_with_sizes", call);
            assert!(sized.is_error, "{}", sized.text());
            assert!(sized.text().contains("sizes asked for"), "{}", sized.text());
        }
    }

    #[test]
    fn sizes_read_as_the_reference_writes_them() {
        let cases = [
            (0, "0 B"),
            (512, "512 B"),
            (1023, "1023 B"),
            (1024, "1.00 KB"),
            (1152, "1.13 KB"),
            (1536, "1.50 KB"),
            (1_048_575, "1024.00 KB"),
            (1_048_576, "1.00 MB"),
            (1 << 30, "1.00 GB"),
            (1 << 40, "1.00 TB"),
            (1 << 50, "1024.00 TB"),
        ];
        for (bytes, text) in cases {
            assert_eq!(reference_size(bytes), text, "{bytes}");
        }
    }
}
