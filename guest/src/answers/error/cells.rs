//! Why a notebook cell edit was refused ([`CellError`]); nothing was
//! written. A notebook whose JSON holds a key twice is named with the key
//! and where it stands ([`RepeatedKey`]).

use std::fmt;
use std::fmt::Write as _;

/// Why a cell edit was refused; nothing was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellError {
    /// The file is not an nbformat 4 notebook (or would not be after).
    NotNotebook {
        /// The path as sent.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// No cell has this id or number.
    NoCell {
        /// The path as sent.
        path: String,
        /// The cell asked for.
        cell: String,
        /// The ids (or numbers) it has.
        known: Vec<String>,
    },
    /// A cell must be named for this mode.
    CellNeeded {
        /// The mode.
        mode: &'static str,
    },
    /// Inserting needs a cell type.
    TypeNeeded,
    /// An object of the notebook's JSON holds a key twice: readers keep
    /// the last, and the edit would work on bytes none of them sees.
    RepeatedKey {
        /// The path as sent.
        path: String,
        /// The key and where.
        repeated: RepeatedKey,
    },
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellError::NotNotebook { path, why } => write!(
                f,
                "Error: {path} is not a valid nbformat 4 notebook, or would not be after this edit ({why}); nothing was written."
            ),
            CellError::NoCell { path, cell, known } => {
                write!(f, "Error: {path} has no cell {cell:?}")?;
                match known.len() {
                    0 => f.write_str(
                        "; it has no cells. Insert one (edit_mode insert, without cell_id).",
                    ),
                    _ => write!(f, "; its cells are: {}.", cut_list(known)),
                }
            }
            CellError::CellNeeded { mode } => write!(
                f,
                "Error: edit_mode {mode} needs cell_id, the id of the cell (as read shows it)."
            ),
            CellError::TypeNeeded => {
                f.write_str("Error: edit_mode insert needs cell_type, \"code\" or \"markdown\".")
            }
            CellError::RepeatedKey { path, repeated } => write!(
                f,
                "Error: {path} holds {repeated} of its JSON. Jupyter and every JSON reader keep only the last, so editing cells here could change text no reader sees; nothing was written. Rewrite it as readers see it (`jq . {path}` keeps the last) or delete the other with a text edit of its JSON, then edit the cell."
            ),
        }
    }
}

/// Cell ids listed in an error.
const LISTED_CELLS: usize = 20;

fn cut_list(items: &[String]) -> String {
    let mut listed = items
        .iter()
        .take(LISTED_CELLS)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > LISTED_CELLS {
        let _ = write!(listed, " and {} more", items.len() - LISTED_CELLS);
    }
    listed
}

/// A key that one object of a notebook's JSON holds twice. Jupyter and
/// every JSON reader (serde_json, Python's `json`) keep the last of the two,
/// so the bytes before it are a part of the file that no reader sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepeatedKey {
    /// The key, decoded (`"c\u0065lls"` is `cells`).
    pub key: String,
    /// The object holding it, as a jq path (`.cells[1].metadata`); empty
    /// for the top level.
    pub at: String,
}

impl fmt::Display for RepeatedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the key {:?} twice ", self.key)?;
        if self.at.is_empty() {
            f.write_str("at the top level")
        } else {
            write!(f, "in the object at {}", self.at)
        }
    }
}
