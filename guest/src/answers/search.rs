//! The sentences of `grep` and `find` (SPEC G3–G5): what a walk left
//! unsearched and by which rule, and the footer that says what an answer
//! showed and the exact `offset` that continues it. Nothing a search skips
//! goes unsaid.
//!
//! ```
//! use filetools_core::answers::search::{SkipRule, Skipped};
//! let mut skipped = Skipped::default();
//! let rule = SkipRule::IgnoreFile { file: ".gitignore".into(), pattern: "target/".into() };
//! skipped.directory(rule, "target");
//! skipped.file(SkipRule::Hidden);
//! assert_eq!(
//!     skipped.to_string(),
//!     "[not searched, by rule (hidden=true or no_ignore=true search them):\n\
//!      .gitignore \"target/\": 1 directory (target/)\n\
//!      hidden: 1 file]"
//! );
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::answers::quote::quoted;

/// Rules listed one per line; the rest are summed on one more.
pub const MAX_RULE_LINES: usize = 8;

/// Directories named per rule; the rest are counted.
pub const MAX_NAMED_DIRS: usize = 3;

/// Why a walk left a path unsearched.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SkipRule {
    /// A line of an ignore file (`.gitignore`, `.ignore`,
    /// `.git/info/exclude`): the file's root-relative path and the line.
    IgnoreFile {
        /// The ignore file.
        file: String,
        /// The line that matched.
        pattern: String,
    },
    /// An exclusion the host configured.
    HostExclude(String),
    /// A name that starts with `.`.
    Hidden,
}

impl SkipRule {
    /// The call argument that lifts the rule.
    fn lifted_by(&self) -> &'static str {
        match self {
            SkipRule::Hidden => "hidden=true",
            _ => "no_ignore=true",
        }
    }
}

impl fmt::Display for SkipRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipRule::IgnoreFile { file, pattern } => write!(f, "{file} {}", quoted(pattern)),
            SkipRule::HostExclude(pattern) => write!(f, "host exclude {}", quoted(pattern)),
            SkipRule::Hidden => f.write_str("hidden"),
        }
    }
}

/// What one rule left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Tally {
    /// The first directories skipped, root-relative.
    named: Vec<String>,
    /// Directories skipped in all.
    dirs: u64,
    /// Files skipped in all.
    files: u64,
}

/// Everything a walk left unsearched: by rule, and the files no rule
/// names but that cannot be searched (binary, symlinks, special files,
/// directories the host refused).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    #[serde(with = "rule_pairs")]
    by_rule: BTreeMap<SkipRule, Tally>,
    /// Files whose bytes are not text.
    pub binary: u64,
    /// Symlinks, never followed by a walk.
    pub symlinks: u64,
    /// FIFOs, sockets and devices.
    pub special: u64,
    /// Files larger than a multiline search loads.
    pub too_large: u64,
    /// Directories the host would not list, root-relative.
    pub unreadable: Vec<String>,
    /// Files listed that could not be read (gone since, or refused).
    pub unreadable_files: u64,
}

impl Skipped {
    /// How much has been left out, all told: it only grows, so an equal
    /// weight means nothing more was left out since.
    pub fn weight(&self) -> u64 {
        let by_rule: u64 = self.by_rule.values().map(|t| t.dirs + t.files).sum();
        by_rule
            + self.binary
            + self.symlinks
            + self.special
            + self.too_large
            + self.unreadable.len() as u64
            + self.unreadable_files
    }

    /// The directory `rel` was left out by `rule`.
    pub fn directory(&mut self, rule: SkipRule, rel: &str) {
        let tally = self.by_rule.entry(rule).or_default();
        tally.dirs += 1;
        if tally.named.len() < MAX_NAMED_DIRS {
            tally.named.push(rel.to_owned());
        }
    }

    /// A file was left out by `rule`.
    pub fn file(&mut self, rule: SkipRule) {
        self.by_rule.entry(rule).or_default().files += 1;
    }

    /// What `other`, a walk that went on where this one stopped, left
    /// out, added as if this walk had gone on itself: the same counts,
    /// and the same first directories named.
    pub fn absorb(&mut self, other: Skipped) {
        for (rule, theirs) in other.by_rule {
            let tally = self.by_rule.entry(rule).or_default();
            tally.dirs += theirs.dirs;
            tally.files += theirs.files;
            let room = MAX_NAMED_DIRS.saturating_sub(tally.named.len());
            tally.named.extend(theirs.named.into_iter().take(room));
        }
        self.binary += other.binary;
        self.symlinks += other.symlinks;
        self.special += other.special;
        self.too_large += other.too_large;
        self.unreadable.extend(other.unreadable);
        self.unreadable_files += other.unreadable_files;
    }

    /// Whether any rule left something out.
    pub fn by_rules(&self) -> bool {
        !self.by_rule.is_empty()
    }

    /// Whether nothing at all was left out.
    pub fn is_empty(&self) -> bool {
        self.by_rule.is_empty() && self.others().is_empty()
    }

    /// The files left out whatever the rules, as phrases.
    fn others(&self) -> Vec<String> {
        let mut parts = Vec::new();
        let counted = [
            (self.binary, "binary file", "binary files"),
            (
                self.symlinks,
                "symlink (not followed)",
                "symlinks (not followed)",
            ),
            (self.special, "special file", "special files"),
            (
                self.too_large,
                "file too large for multiline",
                "files too large for multiline",
            ),
            (
                self.unreadable_files,
                "file that could not be read",
                "files that could not be read",
            ),
        ];
        for (count, one, many) in counted {
            if count > 0 {
                parts.push(format!("{count} {}", if count == 1 { one } else { many }));
            }
        }
        if !self.unreadable.is_empty() {
            let names = slashed(&self.unreadable);
            parts.push(format!("unreadable: {names}"));
        }
        parts
    }
}

/// The rules' tallies as a list of pairs: a JSON object's keys are text,
/// and a rule is not.
mod rule_pairs {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use super::{SkipRule, Tally};

    pub fn serialize<S: Serializer>(
        by_rule: &BTreeMap<SkipRule, Tally>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(by_rule)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<SkipRule, Tally>, D::Error> {
        let pairs = Vec::<(SkipRule, Tally)>::deserialize(deserializer)?;
        Ok(pairs.into_iter().collect())
    }
}

/// Directory names with their trailing slash, comma-separated.
fn slashed(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("{n}/"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.dirs > 0 {
            let more = self.dirs - self.named.len() as u64;
            let etc = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            parts.push(format!(
                "{} ({}{etc})",
                plural(self.dirs, "directory", "directories"),
                slashed(&self.named)
            ));
        }
        if self.files > 0 {
            parts.push(plural(self.files, "file", "files"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// The block that lists what was skipped; empty when nothing was.
impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = Vec::new();
        if self.by_rules() {
            let mut lifts: Vec<&str> = self.by_rule.keys().map(SkipRule::lifted_by).collect();
            lifts.sort_unstable();
            lifts.dedup();
            let verb = if lifts.len() == 1 {
                "searches"
            } else {
                "search"
            };
            lines.push(format!(
                "not searched, by rule ({} {verb} them):",
                lifts.join(" or ")
            ));
            // The rules that left out most come first.
            let mut rules: Vec<(&SkipRule, &Tally)> = self.by_rule.iter().collect();
            rules.sort_by_key(|(_, tally)| std::cmp::Reverse(tally.dirs + tally.files));
            for (rule, tally) in rules.iter().take(MAX_RULE_LINES) {
                lines.push(format!("{rule}: {tally}"));
            }
            let rest = &rules[rules.len().min(MAX_RULE_LINES)..];
            if !rest.is_empty() {
                let dirs: u64 = rest.iter().map(|(_, t)| t.dirs).sum();
                let files: u64 = rest.iter().map(|(_, t)| t.files).sum();
                let count = rest.len();
                lines.push(format!(
                    "{count} more {}: {}, {}",
                    if count == 1 { "rule" } else { "rules" },
                    plural(dirs, "directory", "directories"),
                    plural(files, "file", "files")
                ));
            }
        }
        let others = self.others();
        if !others.is_empty() {
            lines.push(format!("also not searched: {}", others.join(", ")));
        }
        if lines.is_empty() {
            return Ok(());
        }
        write!(f, "[{}]", lines.join("\n"))
    }
}

/// What a search counts its entries in: the `offset` and `head_limit` of
/// the call count the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Output lines (matches and context).
    Lines,
    /// Files.
    Files,
    /// Files found by name, newest first.
    Found,
}

impl Unit {
    fn name(self) -> &'static str {
        match self {
            Unit::Lines => "lines",
            Unit::Files | Unit::Found => "files",
        }
    }
}

/// Why a search answer ends before its last entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The output budget, in tokens, was reached.
    Budget(u64),
    /// The call's `head_limit`.
    HeadLimit(u64),
}

/// The last line of a search that found something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footer {
    /// What the entries are.
    pub unit: Unit,
    /// The first entry shown, 1-based (the call's `offset` plus one).
    pub first: u64,
    /// Entries shown.
    pub shown: u64,
    /// Files searched.
    pub searched: u64,
    /// How the answer ends: complete with the totals (entries, matching
    /// lines, files with a match), or cut.
    pub end: End,
}

/// How a search answer ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Every entry from `first` on was shown.
    Complete {
        /// Entries in all.
        total: u64,
        /// Matching lines in all (0 where not counted: `find`).
        matches: u64,
        /// Files with a match, or found.
        files: u64,
    },
    /// Cut, to go on at `offset`.
    Cut {
        /// Why.
        why: Cut,
        /// The `offset` that continues.
        offset: u64,
    },
}

impl fmt::Display for Footer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = self.unit.name();
        let last = (self.first + self.shown).saturating_sub(1);
        let range = if self.shown == 0 {
            format!("no {unit} from {}", self.first)
        } else {
            format!("{unit} {}-{last}", self.first)
        };
        match self.end {
            End::Complete {
                total,
                matches,
                files,
            } => {
                if self.unit == Unit::Found {
                    return write!(f, "[{range} of {total}, newest first]");
                }
                let found = match (self.unit, matches) {
                    (Unit::Files, 0) => plural(files, "file", "files"),
                    _ => format!(
                        "{} in {}",
                        plural(matches, "matching line", "matching lines"),
                        plural(files, "file", "files")
                    ),
                };
                write!(
                    f,
                    "[{range} of {total}: {found}; {} searched]",
                    plural(self.searched, "file", "files")
                )
            }
            End::Cut { why, offset } => {
                let why = match why {
                    Cut::Budget(tokens) => format!("output budget of {tokens} tokens reached"),
                    Cut::HeadLimit(limit) => format!("head_limit={limit} reached"),
                };
                write!(f, "[{range} shown; {why}; continue with offset={offset}]")
            }
        }
    }
}

/// A line shown in part: where its window lies and how `read` goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongLine {
    /// The line.
    pub line: u64,
    /// First character shown, 1-based.
    pub from: u64,
    /// Last character shown, 1-based.
    pub to: u64,
    /// Characters in the line.
    pub chars: u64,
}

impl fmt::Display for LongLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LongLine {
            line,
            from,
            to,
            chars,
        } = self;
        write!(f, "[line {line}: chars {from}-{to} of {chars}")?;
        if *to < *chars {
            write!(
                f,
                "; read with offset={line}, char_offset={} continues it",
                to + 1
            )?;
        }
        f.write_str("]")
    }
}

/// The answer of a search that found nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoMatch<'a> {
    /// What was looked for, as the model wrote it.
    pub pattern: &'a str,
    /// Files searched.
    pub searched: u64,
    /// The call's `offset`, when past every entry.
    pub offset: Option<(u64, u64)>,
    /// Whether anything was left unsearched.
    pub skipped: bool,
    /// A search of names (`find`): `searched` counts every file walked.
    pub by_name: bool,
}

impl fmt::Display for NoMatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((offset, total)) = self.offset {
            return write!(
                f,
                "No entries past offset={offset}: the search has {total}."
            );
        }
        let files = plural(self.searched, "file", "files");
        let pattern = quoted(self.pattern);
        if self.by_name {
            write!(f, "No files match {pattern} among {files}")?;
        } else {
            write!(f, "No matches for {pattern} in {files} searched")?;
        }
        if self.skipped {
            f.write_str("; some paths were not searched:")
        } else {
            f.write_str("; nothing was skipped.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_footer_names_the_offset_that_continues() {
        let footer = Footer {
            unit: Unit::Lines,
            first: 1,
            shown: 40,
            searched: 3,
            end: End::Cut {
                why: Cut::Budget(25_000),
                offset: 40,
            },
        };
        assert_eq!(
            footer.to_string(),
            "[lines 1-40 shown; output budget of 25000 tokens reached; continue with offset=40]"
        );
    }

    #[test]
    fn a_complete_footer_gives_the_totals() {
        let footer = Footer {
            unit: Unit::Files,
            first: 3,
            shown: 2,
            searched: 10,
            end: End::Complete {
                total: 4,
                matches: 0,
                files: 4,
            },
        };
        assert_eq!(
            footer.to_string(),
            "[files 3-4 of 4: 4 files; 10 files searched]"
        );
    }

    #[test]
    fn many_rules_are_summed_past_the_cap() {
        let mut skipped = Skipped::default();
        for n in 0..(MAX_RULE_LINES + 2) {
            let rule = SkipRule::IgnoreFile {
                file: ".gitignore".into(),
                pattern: format!("p{n}"),
            };
            skipped.file(rule);
        }
        for n in 0..5 {
            skipped.directory(SkipRule::Hidden, &format!(".d{n}"));
        }
        skipped.binary = 2;
        let text = skipped.to_string();
        assert!(
            text.contains("hidden: 5 directories (.d0/, .d1/, .d2/ and 2 more)"),
            "{text}"
        );
        assert!(
            text.contains("3 more rules: 0 directories, 3 files"),
            "{text}"
        );
        assert!(
            text.ends_with("also not searched: 2 binary files]"),
            "{text}"
        );
        assert!(
            text.contains("(hidden=true or no_ignore=true search them)"),
            "{text}"
        );
    }

    #[test]
    fn a_line_shown_in_part_says_how_to_read_the_rest() {
        let long = LongLine {
            line: 7,
            from: 101,
            to: 600,
            chars: 9000,
        };
        assert_eq!(
            long.to_string(),
            "[line 7: chars 101-600 of 9000; read with offset=7, char_offset=601 continues it]"
        );
    }
}
