//! `filetools write PATH`: replaces or creates a file with the content of
//! `--content TEXT`, `--content-file FILE`, or else standard input.

use std::io::Read as _;
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use filetools::WriteArgs;

use crate::args::Args;
use crate::oneshot::{OneShot, switches, value_flags};

pub fn run(argv: Vec<String>) -> Result<ExitCode> {
    let args = Args::parse(
        argv,
        &value_flags(&["content", "content-file"]),
        &switches(&[]),
    )?;
    let [path] = args.positionals.as_slice() else {
        bail!("write takes exactly one PATH");
    };
    let content = match (args.value("content"), args.value("content-file")) {
        (Some(_), Some(_)) => bail!("give --content or --content-file, not both"),
        (Some(text), None) => text.to_owned(),
        (None, Some(file)) => {
            std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?
        }
        (None, None) => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("reading the content from stdin")?;
            text
        }
    };
    let mut shot = OneShot::open(&args)?;
    let result = shot.session.write(&WriteArgs {
        file_path: path.clone(),
        content,
    });
    shot.finish(&result)
}
