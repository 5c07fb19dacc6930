//! `cargo xtask <task>`: the project's tasks, the same ones the README and CI
//! run. Each task first installs what it needs and is missing.

mod demo;
mod fuzz;
mod package;
mod python;
mod run;

use std::process::{Command, ExitCode};

use anyhow::{Context as _, Result, bail};
use run::Need;

const HELP: &str = "\
cargo xtask <task>

Each task first installs what it needs and is missing (in brackets): the wasm32-wasip2
Rust target and Debian's clang and wasi-libc for the component [build]; the npm package's
locked dependencies [npm]; ruff in target/py-lint [ruff]; the Python MCP client in target/py
[mcp client]; Deno and workerd from npm in target/ [deno, workerd]; Debian's redis-server
[redis], chromium [chromium] and ripgrep [rg].

  setup     install everything any task needs [all of the above]
  demo      build the CLI and page through a large log and a minified JSON file [build]
  test      run every test: unit, property, host integration, conformance, the npm
            package's (Node, both back ends, Deno, workerd, and the playground in headless
            Chromium), the Python package's (pytest, the wheel in a fresh venv), and the packed
            crates, npm package and wheel installed in scratch projects
            [build, npm, mcp client, deno, workerd, redis, chromium, rg]
  python    build the Python wheel, install it into a fresh venv (no Rust on the path) and
            run the Python tests there (part of test) [build, npm]
  lint      rustfmt check, clippy (native and wasm32-wasip2), rustdoc warnings; Biome over
            the JavaScript (js/), ruff's lint and format checks over the Python
            [build, npm, ruff]
  bench     the benchmark: wasm vs native per call, sessions, load, 1 GiB file, the
            performance table (each target beside its reference, with the ratio);
            then Node vs wasmtime per call and the npm package's size
            (option: --targets for the performance table alone) [build, npm, redis, rg]
  stress    the reliability suite at full counts: racing writers, swapped-in FIFOs and
            devices, kill -9 during writes (in the CLI, and in Node agents put back by
            either host), protocol fuzz, a damaged cache, hostile files, root spellings
            (options: --bin PATH to measure another build, --seed N, --percent P, --only NAMES)
            [build, npm]
  load      filetools serve held under load: a local Redis Cluster, 2 replicas and 200 MCP
            sessions of the TypeScript SDK reading, editing, patching, undoing and searching;
            throughput, p50/p99, errors, changes lost, each replica's memory over time
            (options: --minutes M or --seconds S, default 3 minutes; --replicas 2-4;
            --sessions N; --bin PATH to load another build, e.g. target/debug/filetools,
            without building the release CLI) [build, npm, redis]
  fuzz      the coverage-guided fuzz targets (argument parser, text pager, edit matcher,
            patch tool)
            on stable Rust (options: --seconds N per target, default 60; --only NAMES)
            [nothing: the targets build natively, without the grammars]
  tokens    what outlines save on real files: ratios and the reach-a-symbol figure [build]
  imports   list the component's imports and check them against the allowed set [build]
  package   pack the crates (the component prebuilt inside), the npm package and the Python
            wheel, and install each into a scratch project that reads and edits a file
            [build, npm]";

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let rest: Vec<String> = std::env::args().skip(2).collect();
    match dispatch(&task, &rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            #[expect(clippy::print_stderr, reason = "the task runner reports to its user")]
            {
                eprintln!("xtask {task}: {err:#}");
            }
            ExitCode::FAILURE
        }
    }
}

fn dispatch(task: &str, rest: &[String]) -> Result<()> {
    if !rest.is_empty() && !matches!(task, "stress" | "fuzz" | "bench" | "load") {
        bail!("{task} takes no arguments");
    }
    if let Some(needs) = needs(task) {
        run::install(needs)?;
    }
    match task {
        "setup" => Ok(()),
        "demo" => demo::run(),
        "test" => test(),
        "lint" => lint(),
        "python" => python::test().map(drop),
        "bench" => bench(rest),
        "stress" => stress(rest),
        "load" => load(rest),
        "fuzz" => fuzz::run(rest),
        "tokens" => tokens(),
        "imports" => imports(),
        "package" => package::run(None),
        "" | "help" | "-h" | "--help" => {
            println!("{HELP}");
            Ok(())
        }
        other => bail!("unknown task {other:?}\n{HELP}"),
    }
}

/// What `task` installs, when missing, before it runs (the brackets in
/// [`HELP`]); `None` for a name that is no task.
fn needs(task: &str) -> Option<&'static [Need]> {
    Some(match task {
        "setup" => run::EVERYTHING,
        // The component and nothing else: these build and run the host.
        "demo" | "tokens" | "imports" => run::BUILD,
        // Clippy builds the host, whose build builds the component, and
        // checks the guest crates for wasm32-wasip2 (the grammars' C
        // included); Biome comes with the npm packages.
        "lint" => &[
            Need::WasmTarget,
            Need::GrammarToolchain,
            Need::NodePackages,
            Need::Ruff,
        ],
        // The component, and the npm packages: `package` and `stress`
        // build the npm package with jco; one of `python`'s tests drives
        // the wheel with the MCP TypeScript SDK from js/node_modules.
        "python" | "package" | "stress" => {
            &[Need::WasmTarget, Need::GrammarToolchain, Need::NodePackages]
        }
        // The clients are the MCP TypeScript SDK's; the store a Redis Cluster.
        "load" => &[
            Need::WasmTarget,
            Need::GrammarToolchain,
            Need::NodePackages,
            Need::Redis,
        ],
        // The serve benchmark keeps its sessions in a real Redis.
        "bench" => &[
            Need::WasmTarget,
            Need::GrammarToolchain,
            Need::NodePackages,
            Need::Redis,
            Need::Ripgrep,
        ],
        "test" => &[
            Need::WasmTarget,
            Need::GrammarToolchain,
            Need::NodePackages,
            Need::McpClient,
            Need::Deno,
            Need::Workerd,
            Need::Redis,
            Need::Chromium,
            Need::Ripgrep,
        ],
        // Built natively without the grammars, so nothing to install.
        "fuzz" => &[],
        _ => return None,
    })
}

fn test() -> Result<()> {
    // The session stores' tests need a real Redis server: missing, they fail.
    run::cargo_env(
        &["test", "--workspace"],
        &[
            ("FILETOOLS_REQUIRE_REDIS", "1"),
            ("FILETOOLS_REQUIRE_RIPGREP", "1"),
        ],
    )?;
    // The Node tests run the CLI and the case layout tool as the Rust tests
    // built them: building them again with other features would double the
    // disk a build takes.
    run::npm_env(&["test"], &[("FILETOOLS_BIN_DIR", &run::debug_dir())])?;
    let wheel = python::test()?;
    package::run(Some(&wheel))
}

fn lint() -> Result<()> {
    run::cargo(&["fmt", "--all", "--check"])?;
    // The JavaScript: Biome's formatter and linter, as js/biome.jsonc sets
    // them, changing nothing; a warning fails too.
    let js = run::root().join("js");
    run::status(
        Command::new(js.join("node_modules/.bin/biome"))
            .args(["ci", "--error-on-warnings", "."])
            .current_dir(&js),
    )
    .context(
        "Biome's checks of the JavaScript (`npx biome check --write .` in js/ applies its fixes)",
    )?;
    // The Python: ruff's lint rules and its formatter, as the top-level
    // pyproject.toml sets them, changing nothing.
    let ruff = run::ruff()?;
    run::status(
        Command::new(&ruff)
            .args(["check", "--no-fix"])
            .current_dir(run::root()),
    )
    .context(
        "ruff's lint of the Python (`target/py-lint/bin/ruff check --fix` applies its fixes)",
    )?;
    run::status(
        Command::new(&ruff)
            .args(["format", "--check"])
            .current_dir(run::root()),
    )
    .context("ruff's layout of the Python (`target/py-lint/bin/ruff format` applies it)")?;
    run::cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    run::cargo(&[
        "clippy",
        "--package",
        "agent-filetools-core",
        "--package",
        "agent-filetools-code",
        "--target",
        "wasm32-wasip2",
        "--target-dir",
        "target/clippy-wasm",
        "--",
        "-D",
        "warnings",
    ])?;
    // The fuzz targets are a crate of their own (see `cargo xtask fuzz`).
    let fuzz = "tests/fuzz/Cargo.toml";
    run::cargo(&["fmt", "--manifest-path", fuzz, "--check"])?;
    run::cargo(&[
        "clippy",
        "--manifest-path",
        fuzz,
        "--target-dir",
        "target/clippy-fuzz",
        "--",
        "-D",
        "warnings",
    ])?;
    run::cargo_env(
        &["doc", "--workspace", "--no-deps", "--exclude", "xtask"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )
}

/// Runs one of the tests crate's binaries, built with optimisations.
fn release_bin(name: &str) -> Result<()> {
    release_bin_with(name, &[], &[])
}

/// [`release_bin`] with arguments and environment for the binary.
fn release_bin_with(name: &str, args: &[String], env: &[(&str, &str)]) -> Result<()> {
    let mut command = vec![
        "run",
        "--release",
        "--package",
        "filetools-tests",
        "--bin",
        name,
        "--",
    ];
    command.extend(args.iter().map(String::as_str));
    run::cargo_env(&command, env)
}

/// The reliability suite at full counts against the release CLI (or the
/// build `--bin` names) — with the npm package built first, since Node
/// agents take part — then nodeFs raced the same way (on a plain run).
fn stress(args: &[String]) -> Result<()> {
    run::release_cli()?;
    run::npm(&["run", "build"])?;
    release_bin_with("stress", args, &[])?;
    if args.is_empty() {
        run::npm(&["run", "stress"])?;
    }
    Ok(())
}

/// The load benchmark against the release CLI, or the build `--bin` names
/// (then nothing is built with optimisations: CI loads its debug build).
fn load(args: &[String]) -> Result<()> {
    if args.iter().any(|a| a == "--bin") {
        let mut command = vec!["run", "--package", "filetools-tests", "--bin", "load", "--"];
        command.extend(args.iter().map(String::as_str));
        return run::cargo(&command);
    }
    run::release_cli()?;
    release_bin_with("load", args, &[])
}

fn bench(args: &[String]) -> Result<()> {
    if args.iter().any(|a| a != "--targets") {
        bail!("bench takes only --targets");
    }
    // The benchmark times the release CLI beside it (`filetools mcp`), and
    // the npm package in Node for its performance table.
    run::release_cli()?;
    run::npm(&["run", "build"])?;
    // The Python rows run the release wheel, installed alone.
    let wheel = python::wheel(python::Profile::Release)?;
    let venv = run::root().join("target/python-bench");
    python::fresh_venv(&venv, &wheel, None)?;
    let python = venv.join("bin/python");
    release_bin_with(
        "bench",
        args,
        &[("FILETOOLS_PYTHON", &python.to_string_lossy())],
    )?;
    if args.is_empty() {
        run::npm(&["run", "bench"])?;
    }
    Ok(())
}

fn tokens() -> Result<()> {
    release_bin("tokens")
}

fn imports() -> Result<()> {
    run::cargo(&[
        "run",
        "--package",
        "agent-filetools",
        "--bin",
        "filetools",
        "--",
        "imports",
    ])
}
