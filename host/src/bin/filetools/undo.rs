//! `filetools undo PATH`: restores the version before this session's last
//! change of the file; needs the `--state` the change was made with.

use std::process::ExitCode;

use anyhow::{Result, bail};
use filetools::UndoArgs;

use crate::args::Args;
use crate::oneshot::{OneShot, switches, value_flags};

pub fn run(argv: Vec<String>) -> Result<ExitCode> {
    let args = Args::parse(argv, &value_flags(&[]), &switches(&[]))?;
    let [path] = args.positionals.as_slice() else {
        bail!("undo takes exactly one PATH");
    };
    let mut shot = OneShot::open(&args)?;
    let result = shot.session.undo(&UndoArgs {
        file_path: path.clone(),
    });
    shot.finish(&result)
}
