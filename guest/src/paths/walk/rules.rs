//! Which paths a search leaves out, decided as ripgrep decides (SPEC G3):
//! the ignore files of the directories above the path (`.ignore` before
//! `.gitignore` before `.git/info/exclude`, the deepest file that has a say
//! deciding, its negations included), then hidden names unless an ignore
//! file re-included them. The host's excludes come before all the files.
//! The call's `glob` and `type` narrow what was asked for and are not
//! reported; unlike ripgrep's `--glob` and `--type`, they never lift an
//! ignore rule or the hidden rule (a search for `*.log` does not bring back
//! the logs `.gitignore` leaves out). Everything else that leaves a path
//! out is reported, by the rule that did.
//!
//! Each matcher sees a path relative to the directory its rules are
//! anchored at (an ignore file's own, the root, the call's base), cut out
//! of the root-relative path as a slice: no path is parsed or allocated
//! to decide.

use std::path::Path;

use ignore::types::{Types, TypesBuilder};
use serde::{Deserialize, Serialize};

use super::patterns::{Patterns, Rule};

use crate::answers::error::ToolError;
use crate::answers::search::SkipRule;
use crate::answers::tool::Tool;
use crate::fs::host::HostFs;

/// Bytes of an ignore file read at most; the rest is not read.
pub const MAX_IGNORE_FILE_BYTES: u32 = 1 << 20;

/// The ignore files a directory may hold, by precedence.
pub const IGNORE_FILES: [&str; 2] = [".ignore", ".gitignore"];

/// Where git keeps a repository's own excludes, root-relative.
pub const GIT_EXCLUDE: &str = ".git/info/exclude";

/// What the call asks to search.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Narrowing {
    /// Search only paths matching this glob (ripgrep's `--glob`).
    pub glob: Option<String>,
    /// Search only files of this type (ripgrep's `--type`).
    pub file_type: Option<String>,
    /// Leave ignore files and host excludes unapplied.
    pub no_ignore: bool,
    /// Search hidden names too.
    pub hidden: bool,
}

/// What the rules say of one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Search it.
    Search,
    /// Left out by a rule the answer names.
    Skip(SkipRule),
    /// Not what the call asked for (its `glob` or `type`).
    Narrowed,
}

/// The ignore files of one directory.
#[derive(Debug, Clone)]
struct Level {
    /// The directory, root-relative (`.` for the root).
    dir: String,
    /// `.ignore`, then `.gitignore`, when present.
    files: [Option<Patterns>; 2],
}

/// The rules in force at a point of a walk.
#[derive(Debug, Clone)]
pub struct Rules {
    narrowing: Narrowing,
    /// The call's glob: what it matches is searched, and a file it does
    /// not match is not (a directory is entered all the same).
    glob: Option<Patterns>,
    types: Option<Types>,
    host: Option<Patterns>,
    exclude: Option<Patterns>,
    /// The directory the call's glob is relative to, root-relative.
    base: String,
    /// One level per directory entered, the root's first.
    levels: Vec<Level>,
}

/// The root-relative path `rel` relative to the directory `dir` (`rel` is
/// at or below it).
fn below<'a>(rel: &'a str, dir: &str) -> &'a str {
    if dir == "." || dir.is_empty() {
        return rel;
    }
    rel.strip_prefix(dir)
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(rel)
}

/// A narrowing the call asked for that cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NarrowingError {
    /// The glob does not parse: the reason.
    Glob(String),
    /// No file type has this name.
    Type(String),
}

impl NarrowingError {
    /// The error of `tool`, whose glob argument is called `glob_name`.
    pub fn for_tool(self, tool: Tool, glob_name: &'static str) -> ToolError {
        match self {
            NarrowingError::Glob(reason) => ToolError::InvalidArgument {
                tool,
                name: glob_name,
                expected: "a glob like \"*.rs\" or \"src/**/*.{ts,tsx}\"",
                got: reason,
            },
            NarrowingError::Type(name) => ToolError::InvalidArgument {
                tool,
                name: "type",
                expected: "a file type such as rust, py, js, ts, go, java, c, cpp, md, json",
                got: crate::answers::quote::quoted(&name),
            },
        }
    }
}

impl Rules {
    /// The rules of a call narrowed by `narrowing`, whose glob is
    /// relative to the directory `base`, with the host's `excludes`
    /// (`.gitignore` lines relative to the root).
    pub fn new<F: HostFs + ?Sized>(
        fs: &F,
        narrowing: Narrowing,
        excludes: &[String],
        base: &str,
    ) -> Result<Self, NarrowingError> {
        let glob = match &narrowing.glob {
            Some(glob) => Some(
                Patterns::new([(None, glob.as_str())], true)
                    .map_err(|err| NarrowingError::Glob(err.0))?,
            )
            .filter(|patterns| !patterns.is_empty()),
            None => None,
        };
        let types = match &narrowing.file_type {
            Some(name) => {
                let mut builder = TypesBuilder::new();
                builder.add_defaults();
                builder.select(name);
                let types = builder
                    .build()
                    .map_err(|_| NarrowingError::Type(name.clone()))?;
                Some(types)
            }
            None => None,
        };
        let host = matcher(excludes.iter().map(|line| (None, line.as_str())));
        let exclude = match read_lines(fs, GIT_EXCLUDE) {
            Some(text) => matcher(lines_of(GIT_EXCLUDE, &text)),
            None => None,
        };
        Ok(Self {
            narrowing,
            glob,
            types,
            host,
            exclude,
            base: base.to_owned(),
            levels: Vec::new(),
        })
    }

    /// Enters the directory `rel`, whose entries' names are `names`: its
    /// ignore files take effect below it.
    pub fn enter<F: HostFs + ?Sized>(&mut self, fs: &F, rel: &str, names: &[&str]) {
        let files = IGNORE_FILES.map(|name| {
            if !names.contains(&name) {
                return None;
            }
            let path = join(rel, name);
            let text = read_lines(fs, &path)?;
            matcher(lines_of(&path, &text))
        });
        self.levels.push(Level {
            dir: rel.to_owned(),
            files,
        });
    }

    /// Leaves the directory last entered.
    pub fn leave(&mut self) {
        self.levels.pop();
    }

    /// What the rules say of `rel` (a directory when `is_dir`), whose
    /// last name is `name`.
    pub fn verdict(&self, rel: &str, name: &str, is_dir: bool) -> Verdict {
        // The call's glob and type only narrow: unlike ripgrep's, a
        // match never lifts an ignore rule or the hidden rule.
        if let Some(glob) = &self.glob
            && narrowed_out(glob, below(rel, &self.base), is_dir)
        {
            return Verdict::Narrowed;
        }
        if let Some(types) = &self.types
            && types.matched(Path::new(rel), is_dir).is_ignore()
        {
            return Verdict::Narrowed;
        }
        let mut whitelisted = false;
        if !self.narrowing.no_ignore {
            if let Some(host) = &self.host
                && let Some(rule) = host.matched(rel, is_dir)
                && !rule.keep
            {
                return Verdict::Skip(SkipRule::HostExclude(rule.original.clone()));
            }
            match self.ignore_files(rel, is_dir) {
                Say::Ignore(rule) => return Verdict::Skip(rule),
                Say::Keep => whitelisted = true,
                Say::Nothing => {}
            }
        }
        if !whitelisted && !self.narrowing.hidden && name.starts_with('.') {
            return Verdict::Skip(SkipRule::Hidden);
        }
        Verdict::Search
    }

    /// The say of the ignore files: for each kind, the deepest file with
    /// a say; `.ignore` before `.gitignore` before the repository's
    /// excludes.
    fn ignore_files(&self, rel: &str, is_dir: bool) -> Say {
        let mut found = [Say::Nothing, Say::Nothing];
        for level in self.levels.iter().rev() {
            for (kind, file) in level.files.iter().enumerate() {
                if let (Say::Nothing, Some(file)) = (&found[kind], file) {
                    found[kind] = Say::of(file.matched(below(rel, &level.dir), is_dir));
                }
            }
        }
        let [ignore, git] = found;
        let exclude = match &self.exclude {
            Some(exclude) => Say::of(exclude.matched(rel, is_dir)),
            None => Say::Nothing,
        };
        [ignore, git, exclude]
            .into_iter()
            .find(|say| *say != Say::Nothing)
            .unwrap_or(Say::Nothing)
    }
}

/// What one ignore file says of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Say {
    /// No line matches.
    Nothing,
    /// Ignored, by this rule.
    Ignore(SkipRule),
    /// Re-included by a negation (`!pattern`).
    Keep,
}

impl Say {
    fn of(matched: Option<&Rule>) -> Self {
        match matched {
            None => Say::Nothing,
            Some(rule) if rule.keep => Say::Keep,
            Some(rule) => Say::Ignore(SkipRule::IgnoreFile {
                file: rule.from.clone().unwrap_or_default(),
                pattern: rule.original.clone(),
            }),
        }
    }
}

/// Whether the call's `glob` leaves `rel` (relative to the call's base)
/// out: a line it matches keeps the path and a negated one (`!`) leaves
/// it out; a file no line matches is left out when a line names what to
/// keep, and a directory no line matches is entered.
fn narrowed_out(glob: &Patterns, rel: &str, is_dir: bool) -> bool {
    match glob.matched(rel, is_dir) {
        Some(rule) => rule.keep,
        None => !is_dir && glob.ignores() > 0,
    }
}

/// `dir/name`, root-relative.
pub(crate) fn join(dir: &str, name: &str) -> String {
    if dir == "." || dir.is_empty() {
        return name.to_owned();
    }
    let mut path = String::with_capacity(dir.len() + 1 + name.len());
    path.push_str(dir);
    path.push('/');
    path.push_str(name);
    path
}

/// The text of the ignore file `rel`, if it can be read.
fn read_lines<F: HostFs + ?Sized>(fs: &F, rel: &str) -> Option<String> {
    let bytes = fs.read(rel, 0, MAX_IGNORE_FILE_BYTES).ok()?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Some(
        text.strip_prefix('\u{feff}')
            .map(str::to_owned)
            .unwrap_or(text),
    )
}

/// The lines of the ignore file `from`, with their origin.
fn lines_of<'a>(from: &'a str, text: &'a str) -> impl Iterator<Item = (Option<&'a str>, &'a str)> {
    text.lines()
        .map(move |line| (Some(from), line.strip_suffix('\r').unwrap_or(line)))
}

/// A matcher of `lines` (of paths relative to where they are anchored);
/// none when no line is a rule. A line that is not a valid glob is left
/// out, as git leaves it out.
fn matcher<'a>(lines: impl Iterator<Item = (Option<&'a str>, &'a str)>) -> Option<Patterns> {
    Patterns::new(lines, false)
        .ok()
        .filter(|patterns| !patterns.is_empty())
}
