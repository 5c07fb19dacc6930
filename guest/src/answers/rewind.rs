//! What a turn mark and a rewind say (SPEC K1), rendered from typed
//! outcomes: the mark's number and what it recorded; for a rewind, each
//! file with what was (or, in a dry run, would be) done, and each file
//! left as found with why.
//!
//! ```
//! use filetools_core::answers::rewind::{Fate, Rewind, Why};
//! let rewind = Rewind {
//!     mark: 2,
//!     dry_run: false,
//!     files: vec![
//!         ("a.rs".into(), Fate::Restored { lines: 3 }),
//!         ("b.rs".into(), Fate::LeftAsFound(Why::Conflict)),
//!     ],
//!     unchanged: 4,
//! };
//! assert!(rewind.to_string().starts_with("Rewound to turn 2: 1 file changed, 1 left as found; 4 files already as at the mark."));
//! ```

use std::fmt;

/// What a turn mark recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkTaken {
    /// Its number.
    pub id: u64,
    /// Files recorded.
    pub files: usize,
    /// Of them, those the host named as changed outside, new to the marks.
    pub named: usize,
    /// Files whose content was too large to keep, with their size: a
    /// rewind cannot bring them back.
    pub unkept: Vec<(String, u64)>,
    /// The oldest mark still kept.
    pub oldest: u64,
    /// Files the session knows of past the most a mark records, not
    /// recorded.
    pub left_out: usize,
}

impl fmt::Display for MarkTaken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let MarkTaken { id, files, .. } = self;
        write!(f, "Marked turn {id}: {files} {} recorded", plural(*files))?;
        if self.named > 0 {
            write!(f, ", {} named as changed outside", self.named)?;
        }
        f.write_str(".")?;
        if !self.unkept.is_empty() {
            let list: Vec<String> = self
                .unkept
                .iter()
                .map(|(path, size)| format!("{path} ({size} bytes)"))
                .collect();
            write!(
                f,
                " Too large to keep, so a rewind leaves them as found: {}.",
                list.join(", ")
            )?;
        }
        if self.left_out > 0 {
            write!(
                f,
                " {} more {} past the most a mark records were left out.",
                self.left_out,
                plural(self.left_out)
            )?;
        }
        if self.oldest > 1 {
            write!(f, " Marks kept: turns {} to {id}.", self.oldest)?;
        }
        Ok(())
    }
}

/// What a rewind does to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Its content at the mark is back.
    Restored {
        /// Its lines.
        lines: u64,
    },
    /// It did not exist at the mark: removed.
    Removed,
    /// It was removed since the mark: put back.
    PutBack {
        /// Its lines.
        lines: u64,
    },
    /// Someone changed it since the session last knew it: the rewind was
    /// merged with that change.
    Merged {
        /// Its lines.
        lines: u64,
    },
    /// Not touched, and why.
    LeftAsFound(Why),
}

/// Why a rewind leaves a file as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// Someone changed it since the session last knew it, at the lines the
    /// rewind would change.
    Conflict,
    /// Someone changed it since, and one side is a missing file or not
    /// UTF-8 text, which no merge joins, or the version a change of the
    /// session left is no longer known.
    CannotMerge,
    /// Someone else changed it since; the session did not.
    OnlyOthersChanged,
    /// Its content at the mark was too large to keep.
    NotKept {
        /// Its size then.
        size: u64,
    },
    /// The session did not know it at the mark (it was named as changed
    /// outside later), so what it held then is not known.
    UnknownAtMark,
    /// It is not a regular file now.
    NotAFile,
    /// The history no longer holds every change the session made to it
    /// since the mark.
    HistoryGone,
    /// A rewind to another turn changed it since the mark.
    RewoundElsewhere {
        /// The turn that rewind went to.
        mark: u64,
    },
    /// It is too large to hold whole now.
    TooLarge {
        /// Its size.
        size: u64,
    },
}

/// What a rewind did, or would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewind {
    /// The mark rewound to.
    pub mark: u64,
    /// Whether nothing was written.
    pub dry_run: bool,
    /// Each file it changed or left as found, by path.
    pub files: Vec<(String, Fate)>,
    /// Files already as at the mark.
    pub unchanged: usize,
}

impl Rewind {
    /// Files it changed (or would).
    pub fn changed(&self) -> usize {
        self.files
            .iter()
            .filter(|(_, fate)| !matches!(fate, Fate::LeftAsFound(_)))
            .count()
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "file" } else { "files" }
}

fn lines(n: u64) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{n} lines")
    }
}

impl fmt::Display for Fate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fate::Restored { lines: n } => write!(f, "restored ({})", lines(*n)),
            Fate::Removed => f.write_str("removed (it did not exist at the mark)"),
            Fate::PutBack { lines: n } => write!(f, "put back ({})", lines(*n)),
            Fate::Merged { lines: n } => write!(
                f,
                "restored, keeping a change someone made since ({})",
                lines(*n)
            ),
            Fate::LeftAsFound(why) => write!(f, "left as found: {why}"),
        }
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Conflict => f.write_str(
                "someone changed it since, at or next to the lines the rewind would change",
            ),
            Why::CannotMerge => f.write_str(
                "someone changed it since the session did, and the two cannot be merged (a removed file, text not UTF-8, or no copy kept of the session's version)",
            ),
            Why::OnlyOthersChanged => {
                f.write_str("only someone else changed it since the mark; their change stays")
            }
            Why::NotKept { size } => {
                write!(f, "its content at the mark ({size} bytes) was too large to keep")
            }
            Why::UnknownAtMark => {
                f.write_str("the session did not know it at the mark, so what it held then is not known")
            }
            Why::NotAFile => f.write_str("it is not a regular file now"),
            Why::HistoryGone => f.write_str(
                "the undo history no longer holds every change made to it since the mark",
            ),
            Why::RewoundElsewhere { mark } => write!(
                f,
                "it was rewound to turn {mark} since; undo that rewind first"
            ),
            Why::TooLarge { size } => write!(f, "it is too large to change now ({size} bytes)"),
        }
    }
}

impl fmt::Display for Rewind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changed = self.changed();
        let left = self.files.len() - changed;
        if self.dry_run {
            write!(
                f,
                "A rewind to turn {} would change {changed} {} and leave {left} as found",
                self.mark,
                plural(changed)
            )?;
        } else {
            write!(
                f,
                "Rewound to turn {}: {changed} {} changed, {left} left as found",
                self.mark,
                plural(changed)
            )?;
        }
        if self.unchanged > 0 {
            let n = self.unchanged;
            write!(f, "; {n} {} already as at the mark", plural(n))?;
        }
        f.write_str(".")?;
        for (path, fate) in &self.files {
            write!(f, "\n{path}: {fate}")?;
        }
        if self.dry_run {
            f.write_str("\nNothing was written; rewind without dry_run to do it.")?;
        } else if changed > 1 {
            f.write_str("\nAn undo of any of these files takes the whole rewind back.")?;
        } else if changed == 1 {
            f.write_str("\nAn undo of the file takes the rewind back.")?;
        }
        Ok(())
    }
}
