//! `filetools imports`: prints the component's imports and fails when one is
//! outside the allowed set (SPEC §1a).

use std::process::ExitCode;

use anyhow::Result;

#[expect(clippy::print_stderr, reason = "the CLI reports to its user on stderr")]
pub fn run() -> Result<ExitCode> {
    let root = std::env::temp_dir();
    let tools = filetools::Tools::builder()
        .root(&root)
        .read_only(true)
        .build()?;
    let imports = tools.component_imports();
    for name in &imports {
        println!("{name}");
    }
    match filetools::imports::check(&imports) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(problems) => {
            for problem in problems {
                eprintln!("{problem}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
