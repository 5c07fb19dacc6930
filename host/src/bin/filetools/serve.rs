//! `filetools serve`: the tools over Streamable HTTP (see
//! docs/service.md).

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use filetools::serve::{Gate, Limits, Options, Roots, Tokens};

use crate::cli::ServeArgs;

/// The environment variable that may hold the one token.
const TOKEN_ENV: &str = "FILETOOLS_TOKEN";

/// A lease lasts this long unless its call renews it: how long a replica
/// that died holds its sessions up.
const LEASE: Duration = Duration::from_secs(5);

/// A call waits this much longer than the longest call for its session.
const LEASE_WAIT_MARGIN: Duration = Duration::from_secs(5);

/// Host names loopback answers to.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

#[expect(
    clippy::print_stderr,
    reason = "the server reports to its user on stderr"
)]
pub fn run(args: &ServeArgs) -> Result<ExitCode> {
    let roots = match (&args.root, &args.workspaces) {
        (Some(root), _) => Roots::One(existing_dir(root, "--root")?),
        (None, Some(dir)) => Roots::Each(existing_dir(dir, "--workspaces")?),
        (None, None) => bail!("give --root DIR or --workspaces DIR"),
    };
    let tokens = tokens(args)?;
    if !args.listen.ip().is_loopback() && !tokens.required() {
        bail!(
            "--listen {} is beyond loopback: give --token-file FILE or set {TOKEN_ENV}",
            args.listen
        );
    }
    let mut hosts: Vec<String> = LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect();
    hosts.extend(args.allow_host.iter().cloned());
    // The address it listens on is one a client may name: the URL printed
    // at start names it.
    hosts.push(args.listen.ip().to_string());
    if hosts.iter().any(|h| h == "*") {
        hosts.clear();
    }
    let limits_args = &args.limits;
    if args.read_only {
        crate::readable(limits_args)?;
    }
    let call_timeout = filetools::DEFAULT_CALL_TIMEOUT;
    let options = Options {
        listen: args.listen,
        roots,
        make_tools: Box::new({
            let config = limits_args.config.clone();
            let tools = limits_args.tools.clone();
            let memory_mib = limits_args.memory_mib;
            let read_only = args.read_only;
            move |root| {
                let limits = crate::cli::Limits {
                    config: config.clone(),
                    tools: tools.clone(),
                    memory_mib,
                };
                crate::build(
                    crate::configured(crate::builder(root, &limits)?, &limits)?
                        .read_only(read_only),
                )
            }
        }),
        read_only: args.read_only,
        store: Arc::from(filetools::serve::store::open(
            &args.store,
            Duration::from_secs(args.session_ttl),
            filetools::serve::store::Durability {
                replicas: args.store_replicas,
                timeout: Duration::from_millis(args.store_wait_ms),
            },
        )?),
        gate: Gate {
            tokens,
            hosts,
            origins: args.allow_origin.clone(),
            max_body_bytes: args.max_body_bytes,
        },
        limits: Limits {
            idle: Duration::from_secs(args.idle),
            resident: args.resident,
            resident_bytes: args.resident_mib.saturating_mul(1 << 20),
            lease: LEASE,
            lease_wait: call_timeout + LEASE_WAIT_MARGIN,
        },
        max_connections: args.max_connections,
        max_calls: args.max_calls,
        progress_interval: Duration::from_millis(args.progress_ms),
    };
    let workspaces = matches!(options.roots, Roots::Each(_));
    filetools::serve::run(options, |address: SocketAddr| {
        let path = if workspaces { "/mcp/WORKSPACE" } else { "/mcp" };
        eprintln!("filetools: serving MCP at http://{address}{path}");
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `dir`, when it is a directory.
fn existing_dir(dir: &std::path::Path, flag: &str) -> Result<std::path::PathBuf> {
    if !dir.is_dir() {
        bail!(
            "{flag} {} is not a directory; give an existing one",
            dir.display()
        );
    }
    Ok(dir.to_owned())
}

/// The tokens of --token-file, else of FILETOOLS_TOKEN; none when neither.
fn tokens(args: &ServeArgs) -> Result<Tokens> {
    if let Some(path) = &args.token_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading --token-file {}", path.display()))?;
        let tokens =
            Tokens::parse(&text).with_context(|| format!("in --token-file {}", path.display()))?;
        if !tokens.required() {
            bail!("--token-file {} holds no token", path.display());
        }
        return Ok(tokens);
    }
    Ok(match std::env::var(TOKEN_ENV) {
        Ok(token) if !token.trim().is_empty() => {
            Tokens::parse(token.trim()).with_context(|| format!("in {TOKEN_ENV}"))?
        }
        _ => Tokens::default(),
    })
}
