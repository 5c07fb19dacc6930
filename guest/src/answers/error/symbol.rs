//! Why a read by symbol found nothing to show ([`SymbolError`]): the file
//! has no outline, no entry has the name (the closest are given), or
//! several have it (each with its lines).

use std::fmt;

use crate::answers::quote::quoted;
use crate::answers::tool::Tool;

/// Why a read by symbol found nothing to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolError {
    /// The file has no outline to look the name up in.
    NoOutline {
        /// The path as sent.
        path: String,
        /// Why: not a language with an outline, too large, or the parse
        /// stopped.
        why: String,
        /// The tool that looked: what to do instead depends on it.
        tool: Tool,
    },
    /// No entry has that name.
    Unknown {
        /// The path as sent.
        path: String,
        /// The name asked for.
        symbol: String,
        /// The closest qualified names, best first.
        closest: Vec<String>,
    },
    /// Several entries have that name.
    Ambiguous {
        /// The path as sent.
        path: String,
        /// The name asked for.
        symbol: String,
        /// The qualified names and lines of the first few.
        candidates: Vec<(String, u64, u64)>,
        /// How many matched in all.
        count: usize,
    },
    /// An edit by symbol of an entry the session has not shown whole.
    Unseen {
        /// The path as sent.
        path: String,
        /// The entry's qualified name.
        name: String,
        /// Its lines.
        first: u64,
        /// Its last line.
        last: u64,
        /// Its first line not shown.
        gap: u64,
        /// The name as the model gave it.
        asked: String,
    },
    /// An edit by symbol of an entry that shares a line with another:
    /// lines are what it replaces.
    SharedLine {
        /// The path as sent.
        path: String,
        /// The entry's qualified name.
        name: String,
        /// The other entry's.
        other: String,
        /// The line they share.
        line: u64,
    },
    /// A read of the block around a line that no named entry holds.
    NoBlock {
        /// The path as sent.
        path: String,
        /// The line asked for.
        line: u64,
        /// Lines in the file.
        total: u64,
    },
}

impl SymbolError {
    /// The machine-readable name of the failure.
    pub fn code(&self) -> &'static str {
        match self {
            SymbolError::NoOutline { .. } => "no_outline",
            SymbolError::Unknown { .. } => "unknown_symbol",
            SymbolError::Ambiguous { .. } => "ambiguous_symbol",
            SymbolError::Unseen { .. } => "not_read",
            SymbolError::NoBlock { .. } => "no_block",
            SymbolError::SharedLine { .. } => "shared_line",
        }
    }
}

impl fmt::Display for SymbolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymbolError::NoOutline { path, why, tool } => {
                let instead = if *tool == Tool::Edit {
                    "edit it with old_string instead"
                } else {
                    "read it with offset and limit instead"
                };
                write!(
                    f,
                    "Error: {path} has no outline to find a symbol in ({why}); {instead}."
                )
            }
            SymbolError::Unknown {
                path,
                symbol,
                closest,
            } => {
                write!(f, "Error: no symbol {} in {path}", quoted(symbol))?;
                if closest.is_empty() {
                    write!(f, "; read the file without a range to see its outline.")
                } else {
                    let names: Vec<String> = closest.iter().map(|n| quoted(n)).collect();
                    write!(f, "; the closest are {}.", names.join(", "))
                }
            }
            SymbolError::Ambiguous {
                path,
                symbol,
                candidates,
                count,
            } => {
                let listed: Vec<String> = candidates
                    .iter()
                    .map(|(name, first, last)| {
                        if first == last {
                            format!("{} (line {first})", quoted(name))
                        } else {
                            format!("{} (lines {first}-{last})", quoted(name))
                        }
                    })
                    .collect();
                write!(
                    f,
                    "Error: {} names {count} symbols in {path}: {}",
                    quoted(symbol),
                    listed.join(", ")
                )?;
                if *count > candidates.len() {
                    write!(f, " and {} more", count - candidates.len())?;
                }
                write!(f, "; name one with its parents, as listed.")
            }
            SymbolError::Unseen {
                path,
                name,
                first,
                last,
                gap,
                asked,
            } => write!(
                f,
                "Error: you have not read all of {} in {path} (lines {first}-{last}; line {gap} was not shown); read it with symbol={} first, or give expect with the file's version.",
                quoted(name),
                quoted(asked)
            ),
            SymbolError::SharedLine {
                path,
                name,
                other,
                line,
            } => write!(
                f,
                "Error: {} shares line {line} of {path} with {}, and an edit by symbol replaces whole lines; edit it with old_string instead.",
                quoted(name),
                quoted(other)
            ),
            SymbolError::NoBlock { path, line, total } if line > total => write!(
                f,
                "Error: {path} has {total} {}, so no line {line}; read it without a range to see its outline.",
                if *total == 1 { "line" } else { "lines" }
            ),
            SymbolError::NoBlock { path, line, .. } => write!(
                f,
                "Error: no outline entry of {path} holds line {line}; read it with offset and limit instead."
            ),
        }
    }
}
