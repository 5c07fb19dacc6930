//! `filetools edit PATH --old TEXT --new TEXT [--replace-all]`, or
//! `--edits JSON` with a list of `{old_string, new_string, replace_all?}`,
//! or `--symbol NAME --new TEXT [--position before|after]`.

use std::process::ExitCode;

use anyhow::{Context as _, Result};
use filetools::{EditArgs, EditOp, Placement, SymbolEditArgs};
use serde_json::Value;

use crate::cli;
use crate::oneshot::OneShot;

pub fn run(args: &cli::EditArgs) -> Result<ExitCode> {
    let path = &args.common.path;
    // clap has checked that it is --old with --new, --edits alone, or
    // --symbol with --new.
    let call = match (&args.old, &args.new, &args.edits) {
        (_, _, Some(edits)) => {
            let edits: Value = serde_json::from_str(edits).context(
                "--edits is not JSON; give a list of {\"old_string\", \"new_string\"} objects",
            )?;
            let mut call = serde_json::Map::new();
            call.insert("file_path".into(), Value::String(path.clone()));
            call.insert("edits".into(), edits);
            if let Some(encoding) = &args.encoding {
                call.insert("encoding".into(), Value::String(encoding.clone()));
            }
            if let Some(expect) = &args.expect {
                call.insert("expect".into(), Value::String(expect.clone()));
            }
            Some(Value::Object(call).to_string())
        }
        _ => None,
    };
    let mut shot = OneShot::open(&args.common)?;
    if let Some(symbol) = &args.symbol {
        let result = shot.session.edit_symbol(&SymbolEditArgs {
            file_path: path.clone(),
            symbol: symbol.clone(),
            new_string: args.new.clone().unwrap_or_default(),
            position: match args.position {
                cli::Position::Replace => Placement::Replace,
                cli::Position::Before => Placement::Before,
                cli::Position::After => Placement::After,
            },
            encoding: args.encoding.clone(),
            expect: args.expect.clone(),
        });
        return shot.finish(&result);
    }
    let result = match call {
        Some(call) => shot.session.call("edit", &call),
        None => shot.session.edit(&EditArgs {
            file_path: path.clone(),
            edits: vec![EditOp {
                old_string: args.old.clone().unwrap_or_default(),
                new_string: args.new.clone().unwrap_or_default(),
                replace_all: args.replace_all,
            }],
            encoding: args.encoding.clone(),
            expect: args.expect.clone(),
        }),
    };
    shot.finish(&result)
}
