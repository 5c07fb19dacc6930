//! `filetools edit PATH --old TEXT --new TEXT [--replace-all]`, or
//! `--edits JSON` with a list of `{old_string, new_string, replace_all?}`.

use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use filetools::{EditArgs, EditOp};
use serde_json::Value;

use crate::args::Args;
use crate::oneshot::{OneShot, switches, value_flags};

pub fn run(argv: Vec<String>) -> Result<ExitCode> {
    let args = Args::parse(
        argv,
        &value_flags(&["old", "new", "edits"]),
        &switches(&["replace-all"]),
    )?;
    let [path] = args.positionals.as_slice() else {
        bail!("edit takes exactly one PATH");
    };
    let mut shot = OneShot::open(&args)?;
    let result = match (args.value("old"), args.value("new"), args.value("edits")) {
        (Some(old), Some(new), None) => shot.session.edit(&EditArgs {
            file_path: path.clone(),
            edits: vec![EditOp {
                old_string: old.to_owned(),
                new_string: new.to_owned(),
                replace_all: args.switch("replace-all"),
            }],
        }),
        (None, None, Some(edits)) => {
            let edits: Value = serde_json::from_str(edits).context("--edits is not JSON")?;
            let mut call = serde_json::Map::new();
            call.insert("file_path".into(), Value::String(path.clone()));
            call.insert("edits".into(), edits);
            shot.session.call("edit", &Value::Object(call).to_string())
        }
        _ => bail!("edit needs --old TEXT and --new TEXT, or --edits JSON"),
    };
    shot.finish(&result)
}
