//! `filetools imports`: prints the imports of the component and of the
//! grammars' component, and fails when one is outside the allowed set
//! (SPEC §1a).

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
    let code = tools.code_component_imports()?;
    for name in &imports {
        println!("{name}");
    }
    println!("# the grammars' component");
    for name in &code {
        println!("{name}");
    }
    let problems: Vec<String> = [
        filetools::imports::check(&imports),
        filetools::imports::check_code(&code),
    ]
    .into_iter()
    .filter_map(Result::err)
    .flatten()
    .collect();
    for problem in &problems {
        eprintln!("{problem}");
    }
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
