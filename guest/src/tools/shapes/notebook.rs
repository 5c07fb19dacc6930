//! `notebook_edit`, in the shape of Claude Code's `NotebookEdit`
//! (`notebook_path`, `cell_id`, `new_source`, `cell_type`, `edit_mode`),
//! onto the change layer's `cells`. It joins any tool set (`"tools": ["text-editor",
//! "notebook"]`); the notebook must have been read (with `read`, `view` or
//! `read_text_file`) first.

use serde_json::json;

use super::args::Args;
use crate::answers::error::ToolError;
use crate::answers::result::{Block, ToolResult};
use crate::change::cells::{self, CellEdit, Mode};
use crate::config::{Config, ToolSet};
use crate::fs::host::HostFs;
use crate::paths::repair::Lookup;
use crate::tools::definitions::{Annotations, Definition, change_answers, expect_property};
use crate::tools::session::Session;

/// The tool's name.
pub const NAME: &str = "notebook_edit";

const TAKES: &str = "{notebook_path: string, cell_id?: string, new_source: string, cell_type?: \"code\" | \"markdown\", edit_mode?: \"replace\" | \"insert\" | \"delete\", expect?: string}";

/// Runs one `notebook_edit` call.
pub fn call<F: HostFs>(session: &mut Session<F>, arguments: &str) -> ToolResult {
    let mut result = match parse(arguments) {
        Ok((path, edit)) => session.change((&path, Lookup::Existing), |ctx, target| {
            cells::run(ctx, target, &path, &edit)
        }),
        Err(err) => session.run(|_| Err(err)),
    };
    // The core's way to create a missing file names its own tools; the
    // model may hold another set's, or none that creates files.
    let create = creating(session.config());
    for block in &mut result.content {
        if let Block::Text(text) = block {
            *text = text.replace(CORE_CREATE, &create);
        }
    }
    result
}

/// How the core tells the model to create a missing file.
const CORE_CREATE: &str = "to create it, use write, or edit with an empty old_string.";

/// How a model holding the tools of `config` creates a notebook: with the
/// first set's tool that writes a whole file, or not at all.
fn creating(config: &Config) -> String {
    let tool = config.tools.iter().find_map(|set| match set {
        _ if config.read_only => None,
        ToolSet::Filetools => Some("write"),
        ToolSet::TextEditor => Some("create"),
        ToolSet::McpFilesystem => Some("write_file"),
        ToolSet::ApplyPatch | ToolSet::Notebook => None,
    });
    match tool {
        Some(tool) => format!("to create it, use {tool} with the notebook's JSON."),
        None => format!("{NAME} changes existing notebooks only: check the path."),
    }
}

fn parse(arguments: &str) -> Result<(String, CellEdit), ToolError> {
    let args = Args::parse(NAME, TAKES, arguments)?;
    args.only(&[
        "notebook_path",
        "file_path",
        "cell_id",
        "new_source",
        "cell_type",
        "edit_mode",
        "expect",
    ])?;
    let Some(path) = args
        .opt_string("notebook_path")?
        .or(args.opt_string("file_path")?)
    else {
        return Err(args.error("notebook_path is required"));
    };
    let mode = match args.opt_string("edit_mode")?.as_deref() {
        None | Some("replace") => Mode::Replace,
        Some("insert") => Mode::Insert,
        Some("delete") => Mode::Delete,
        Some(other) => {
            return Err(args.error(format!(
                "edit_mode {other:?} is not one of replace, insert, delete"
            )));
        }
    };
    let kind = args.opt_string("cell_type")?;
    if let Some(kind) = &kind
        && !["code", "markdown", "raw"].contains(&kind.as_str())
    {
        return Err(args.error(format!("cell_type {kind:?} is not code or markdown")));
    }
    let source = match (&mode, args.opt_string("new_source")?) {
        (Mode::Delete, source) => source.unwrap_or_default(),
        (_, Some(source)) => source,
        (_, None) => return Err(args.error("new_source is required")),
    };
    let edit = CellEdit {
        cell: args.opt_string("cell_id")?,
        source,
        kind,
        mode,
        expect: args.opt_string("expect")?,
    };
    Ok((path, edit))
}

/// The tool's definition.
pub fn definition() -> Definition {
    Definition {
        name: NAME,
        description: "Edit a Jupyter notebook (.ipynb) cell by cell: replace a cell's source, insert a new cell after a cell (or at the start, without cell_id), or delete a cell. Read the notebook first; cells are named by the id read shows. An edited code cell loses its outputs and execution count. Every other cell keeps its bytes; the result is checked as a valid notebook before it is written."
            .to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "notebook_path": {"type": "string", "description": "Path of the notebook."},
                "cell_id": {"type": "string", "description": "Id of the cell to edit (or to insert after); cell-N (0-based) or N (1-based) also name a cell by position."},
                "new_source": {"type": "string", "description": "The cell's new source."},
                "cell_type": {"type": "string", "enum": ["code", "markdown"], "description": "The cell's type; required to insert."},
                "edit_mode": {"type": "string", "enum": ["replace", "insert", "delete"], "description": "What to do. Default replace."},
                "expect": expect_property()
            },
            "required": ["notebook_path", "new_source"],
            "additionalProperties": false
        }),
        output_schema: change_answers(),
        annotations: Annotations {
            title: "Edit a notebook cell",
            read_only: false,
            destructive: true,
            idempotent: false,
        },
        builtin: None,
    }
}

#[cfg(test)]
mod tests {
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    /// The answer to an edit of a notebook that does not exist, for a
    /// session with the sets `tools`.
    fn missing(tools: &str) -> String {
        let config = format!(r#"{{"tools": {tools}}}"#);
        let mut session = Session::open(&config, MemFs::new()).unwrap();
        let args = r#"{"notebook_path": "n.ipynb", "new_source": "x"}"#;
        session.call("notebook_edit", args).text()
    }

    #[test]
    fn a_missing_notebook_names_only_the_tools_the_session_has() {
        assert_eq!(
            missing(r#"["notebook"]"#),
            "Error: n.ipynb does not exist; notebook_edit changes existing notebooks only: check the path."
        );
        assert!(
            missing(r#"["filetools", "notebook"]"#)
                .ends_with("use write with the notebook's JSON.")
        );
        assert!(
            missing(r#"["text-editor", "notebook"]"#)
                .ends_with("use create with the notebook's JSON.")
        );
        assert!(
            missing(r#"["mcp-filesystem", "notebook"]"#)
                .ends_with("use write_file with the notebook's JSON.")
        );
    }
}
