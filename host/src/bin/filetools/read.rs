//! `filetools read PATH`: one read from a shell. Prints the text the model
//! would see (or, with `--json`, the protocol line); exits 1 when the result
//! is an error.

use std::process::ExitCode;

use anyhow::{Result, bail};
use filetools::ReadArgs;

use crate::args::Args;
use crate::oneshot::{OneShot, switches, value_flags};

pub fn run(argv: Vec<String>) -> Result<ExitCode> {
    let args = Args::parse(
        argv,
        &value_flags(&["offset", "limit", "char-offset", "pages"]),
        &switches(&[]),
    )?;
    let [path] = args.positionals.as_slice() else {
        bail!("read takes exactly one PATH");
    };
    let mut shot = OneShot::open(&args)?;
    let result = shot.session.read(&ReadArgs {
        file_path: path.clone(),
        offset: args.number("offset")?,
        limit: args.number("limit")?,
        char_offset: args.number("char-offset")?,
        pages: args.value("pages").map(str::to_owned),
    });
    shot.finish(&result)
}
