//! Every sentence of a `replace` that succeeds (SPEC Y2), rendered from a
//! typed outcome: the dry run's occurrences, numbered, each with its file's
//! version and its lines before and after, and the next call; or what the
//! change replaced, and how to take it back.
//!
//! ```
//! use filetools_core::answers::replace::Replaced;
//! let done = Replaced { files: vec![("a.rs".into(), vec![3, 9], "1f2e3d4c5b6a7980-10".into())], count: 2 };
//! assert_eq!(
//!     done.to_string(),
//!     "Replaced 2 occurrences in 1 file: undo of a.rs takes the change back.\na.rs: lines 3, 9 [version 1f2e3d4c5b6a7980-10]"
//! );
//! ```

use std::fmt;

use crate::answers::quote::quoted;

/// One occurrence of a dry run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// Its number, from 1 in the order of files and places.
    pub number: u64,
    /// The line it starts on.
    pub line: u64,
    /// The lines it is on, as they are.
    pub before: Vec<String>,
    /// The same lines with it replaced.
    pub after: Vec<String>,
}

/// A file of a dry run with its occurrences shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedFile {
    /// Root-relative path.
    pub path: String,
    /// Its version, as `expect` takes it.
    pub version: String,
    /// Its occurrences shown.
    pub occurrences: Vec<Occurrence>,
}

/// A dry run: what `apply` would replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DryRun {
    /// The pattern as given.
    pub pattern: String,
    /// Files shown, with their occurrences.
    pub files: Vec<PlannedFile>,
    /// Occurrences in all, and the files holding them.
    pub total: u64,
    /// Files that hold the pattern.
    pub total_files: u64,
    /// Files searched.
    pub searched: u64,
    /// The first occurrence not shown, when the budget cut the list.
    pub cut_at: Option<u64>,
}

impl fmt::Display for DryRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.total == 0 {
            return write!(
                f,
                "No occurrence of {} in the {} {} searched; nothing would change.",
                quoted(&self.pattern),
                self.searched,
                if self.searched == 1 { "file" } else { "files" }
            );
        }
        writeln!(
            f,
            "Dry run: {} {} of {} in {} {} (of {} searched); nothing was changed.",
            self.total,
            if self.total == 1 {
                "occurrence"
            } else {
                "occurrences"
            },
            quoted(&self.pattern),
            self.total_files,
            if self.total_files == 1 {
                "file"
            } else {
                "files"
            },
            self.searched
        )?;
        for file in &self.files {
            writeln!(f, "{} [version {}]", file.path, file.version)?;
            for occurrence in &file.occurrences {
                writeln!(f, "#{} line {}:", occurrence.number, occurrence.line)?;
                for line in &occurrence.before {
                    writeln!(f, "-{line}")?;
                }
                for line in &occurrence.after {
                    writeln!(f, "+{line}")?;
                }
            }
        }
        if let Some(first) = self.cut_at {
            // An apply needs every file holding the pattern seen: narrowed,
            // the next dry run shows the rest.
            return write!(
                f,
                "[occurrences {first}-{} are not shown, to keep this answer short; an apply needs every file holding the pattern shown: narrow with path or glob and run the dry run again]",
                self.total
            );
        }
        write!(
            f,
            "[to replace them: apply=true with expected_count={}; or occurrences=[numbers] with expected_count their count]",
            self.total
        )
    }
}

/// What an applied `replace` changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replaced {
    /// Each file changed: its path, the lines of its occurrences, its
    /// version now.
    pub files: Vec<(String, Vec<u64>, String)>,
    /// Occurrences replaced.
    pub count: u64,
}

impl fmt::Display for Replaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let files = self.files.len();
        let back = match self.files.as_slice() {
            [(one, _, _)] => format!("undo of {one} takes the change back"),
            _ => "undo of any of them takes back the change of all".to_owned(),
        };
        write!(
            f,
            "Replaced {} {} in {files} {}: {back}.",
            self.count,
            if self.count == 1 {
                "occurrence"
            } else {
                "occurrences"
            },
            if files == 1 { "file" } else { "files" },
        )?;
        for (path, lines, version) in &self.files {
            let listed: Vec<String> = lines.iter().map(u64::to_string).collect();
            let word = if lines.len() == 1 { "line" } else { "lines" };
            write!(
                f,
                "\n{path}: {word} {} [version {version}]",
                listed.join(", ")
            )?;
        }
        Ok(())
    }
}
