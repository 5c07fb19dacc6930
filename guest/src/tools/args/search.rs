//! `grep` and `find` arguments, with the names Claude Code's Grep and Glob
//! use (`-A`, `-B`, `-C`, `-i`, `output_mode`, `head_limit`, `offset`).
//! `-n` is accepted and changes nothing: lines are always numbered, as a
//! view needs them.
//!
//! ```
//! use filetools_core::view::search::args::{GrepArgs, OutputMode};
//! let args = GrepArgs::from_json(r#"{"pattern": "fn main", "output_mode": "content", "-C": 2}"#).unwrap();
//! assert_eq!((args.output_mode, args.context_lines()), (OutputMode::Content, (2, 2)));
//! ```

use serde_json::{Map, Value};

use super::{boolean, known_keys, number, object, required_string, string};
use crate::answers::error::ToolError;
use crate::answers::tool::Tool;
use crate::view::search::args::{FindArgs, GrepArgs, OutputMode};

/// A whole number argument that may be 0.
fn count(
    tool: Tool,
    map: &Map<String, Value>,
    name: &'static str,
) -> Result<Option<u64>, ToolError> {
    number(tool, map, name, 0).map_err(|err| match err {
        ToolError::InvalidArgument {
            tool, name, got, ..
        } => ToolError::InvalidArgument {
            tool,
            name,
            expected: "an integer >= 0",
            got,
        },
        other => other,
    })
}

fn output_mode(map: &Map<String, Value>) -> Result<OutputMode, ToolError> {
    match string(Tool::Grep, map, "output_mode")? {
        None => Ok(OutputMode::default()),
        Some(name) => OutputMode::from_name(name.trim()).ok_or(ToolError::InvalidArgument {
            tool: Tool::Grep,
            name: "output_mode",
            expected: "\"content\", \"files_with_matches\" or \"count\"",
            got: crate::answers::quote::quoted(&name),
        }),
    }
}

impl GrepArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        Self::from_map(&object(Tool::Grep, text)?)
    }

    /// Parses an already decoded JSON object.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, ToolError> {
        known_keys(Tool::Grep, map)?;
        boolean(Tool::Grep, map, "-n")?;
        Self {
            pattern: required_string(Tool::Grep, map, "pattern")?,
            path: string(Tool::Grep, map, "path")?,
            glob: string(Tool::Grep, map, "glob")?,
            file_type: string(Tool::Grep, map, "type")?,
            output_mode: output_mode(map)?,
            after: count(Tool::Grep, map, "-A")?,
            before: count(Tool::Grep, map, "-B")?,
            context: count(Tool::Grep, map, "-C")?,
            case_insensitive: boolean(Tool::Grep, map, "-i")?.unwrap_or(false),
            multiline: boolean(Tool::Grep, map, "multiline")?.unwrap_or(false),
            head_limit: number(Tool::Grep, map, "head_limit", 1)?,
            offset: count(Tool::Grep, map, "offset")?.unwrap_or(0),
            no_ignore: boolean(Tool::Grep, map, "no_ignore")?.unwrap_or(false),
            hidden: boolean(Tool::Grep, map, "hidden")?.unwrap_or(false),
        }
        .checked()
    }
}

impl FindArgs {
    /// Parses raw JSON arguments.
    pub fn from_json(text: &str) -> Result<Self, ToolError> {
        Self::from_map(&object(Tool::Find, text)?)
    }

    /// Parses an already decoded JSON object.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, ToolError> {
        known_keys(Tool::Find, map)?;
        Self {
            pattern: required_string(Tool::Find, map, "pattern")?,
            path: string(Tool::Find, map, "path")?,
            head_limit: number(Tool::Find, map, "head_limit", 1)?,
            offset: count(Tool::Find, map, "offset")?.unwrap_or(0),
            no_ignore: boolean(Tool::Find, map, "no_ignore")?.unwrap_or(false),
            hidden: boolean(Tool::Find, map, "hidden")?.unwrap_or(false),
        }
        .checked()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_names_and_aliases_are_taken() {
        let args = GrepArgs::from_json(
            r#"{"pattern":"x","include":"*.rs","-i":true,"-A":"1","-B":0,"offset":"3","-n":true}"#,
        )
        .unwrap();
        assert_eq!(args.glob.as_deref(), Some("*.rs"));
        assert!(args.case_insensitive);
        assert_eq!(
            (args.before, args.after, args.offset),
            (Some(0), Some(1), 3)
        );
    }

    #[test]
    fn a_negative_offset_is_refused_with_the_schema() {
        let err = GrepArgs::from_json(r#"{"pattern":"x","offset":-1}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "Error: offset must be an integer >= 0, got -1; grep takes {pattern: string"
            ),
            "{err}"
        );
    }

    #[test]
    fn an_unknown_mode_is_named() {
        let err = GrepArgs::from_json(r#"{"pattern":"x","output_mode":"lines"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("\"content\", \"files_with_matches\" or \"count\""),
            "{err}"
        );
    }

    #[test]
    fn find_takes_a_glob_by_either_name() {
        let args = FindArgs::from_json(r#"{"glob":"**/*.rs","path":"src"}"#).unwrap();
        assert_eq!(
            (args.pattern.as_str(), args.path.as_deref()),
            ("**/*.rs", Some("src"))
        );
    }
}
