//! The notice of files the model has seen that changed on disk since its
//! view (SPEC K2), rendered from a typed outcome: each file with its
//! numbered lines as they are now, a file with no view to compare with
//! described by how it changed, removed files, and the files left out to
//! stay within the budget (they are told when next touched).
//!
//! ```
//! use filetools_core::answers::changes::ChangeNotice;
//! let notice = ChangeNotice { removed: vec!["old.rs".into()], ..ChangeNotice::default() };
//! assert_eq!(notice.to_string(), "Changed on disk since your view:\nold.rs was removed.");
//! ```

use std::fmt;

use crate::answers::refusal::Change;
use crate::memory::version::Version;

/// What changed of the files the model has seen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeNotice {
    /// Files shown with what changed: the path, its version now and the
    /// numbered lines that changed.
    pub shown: Vec<(String, Version, String)>,
    /// Files that changed with no view kept to compare them with.
    pub unshown: Vec<(String, Change)>,
    /// Files removed since.
    pub removed: Vec<String>,
    /// Files that changed but did not fit the answer's budget.
    pub over_budget: Vec<String>,
}

impl ChangeNotice {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
            && self.unshown.is_empty()
            && self.removed.is_empty()
            && self.over_budget.is_empty()
    }
}

impl fmt::Display for ChangeNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("No file you have seen changed on disk since your view.");
        }
        let mut lines = vec!["Changed on disk since your view:".to_owned()];
        for (path, version, diff) in &self.shown {
            if diff.is_empty() {
                lines.push(format!(
                    "{path} (now version {version}): no line differs, only bytes outside the lines (a byte-order mark)."
                ));
            } else {
                lines.push(format!("{path} (now version {version}):\n{diff}"));
            }
        }
        for (path, change) in &self.unshown {
            lines.push(format!("{path} changed ({change}); read it to see how."));
        }
        for path in &self.removed {
            lines.push(format!("{path} was removed."));
        }
        if !self.over_budget.is_empty() {
            lines.push(format!(
                "Also changed, left out to keep this answer short: {}; read them.",
                self.over_budget.join(", ")
            ));
        }
        f.write_str(&lines.join("\n"))
    }
}
