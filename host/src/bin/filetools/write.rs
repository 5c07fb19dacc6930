//! `filetools write PATH`: replaces or creates a file with the content of
//! `--content TEXT`, `--content-file FILE`, or else standard input.

use std::io::Read as _;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use filetools::WriteArgs;

use crate::cli;
use crate::oneshot::OneShot;

pub fn run(args: &cli::WriteArgs) -> Result<ExitCode> {
    let content = match (&args.content, &args.content_file) {
        (Some(text), _) => text.clone(),
        (None, Some(file)) => std::fs::read_to_string(file)
            .with_context(|| format!("reading --content-file {}", file.display()))?,
        (None, None) => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("reading the content from stdin (or give --content TEXT)")?;
            text
        }
    };
    let mut shot = OneShot::open(&args.common)?;
    let result = shot.session.write(&WriteArgs {
        file_path: args.common.path.clone(),
        content,
        encoding: args.encoding.clone(),
        expect: args.expect.clone(),
    });
    shot.finish(&result)
}
