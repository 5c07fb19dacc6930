//! `filetools undo PATH`: restores the version before this session's last
//! change of the file; needs the `--state` the change was made with.

use std::process::ExitCode;

use anyhow::Result;
use filetools::UndoArgs;

use crate::cli::PathArgs;
use crate::oneshot::OneShot;

pub fn run(args: &PathArgs) -> Result<ExitCode> {
    let mut shot = OneShot::open(&args.common)?;
    let result = shot.session.undo(&UndoArgs {
        file_path: args.common.path.clone(),
        expect: args.expect.clone(),
    });
    shot.finish(&result)
}
