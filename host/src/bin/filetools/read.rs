//! `filetools read PATH`: one read from a shell.

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::ReadArgs;
use crate::oneshot::OneShot;

pub fn run(args: &ReadArgs) -> Result<ExitCode> {
    let mut shot = OneShot::open(&args.common)?;
    let result = shot.session.read(&filetools::ReadArgs {
        file_path: args.common.path.clone(),
        offset: args.offset,
        limit: args.limit,
        char_offset: args.char_offset,
        pages: args.pages.clone(),
        symbol: args.symbol.clone(),
        block: args.block,
        encoding: args.encoding.clone(),
    });
    shot.finish(&result)
}
