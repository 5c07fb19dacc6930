//! Which imports the component may have (SPEC §1a, STYLE 3). The guest must
//! reach files only through `host-fs`; Rust's std on `wasm32-wasip2` pulls in
//! a few WASI interfaces, each allowed below with the reason it carries no
//! authority in our hosts. Anything else — above all `wasi:filesystem` and
//! `wasi:sockets` — fails the check with a message that names it.

/// Allowed import prefixes (name without version) and why each is harmless.
pub const ALLOWED: &[(&str, &str)] = &[
    ("filetools:core/host-fs", "the contract: all file access"),
    ("filetools:core/types", "types of the contract"),
    (
        "filetools:core/code",
        "parses of code, by the grammars' component: pure computation",
    ),
    (
        "filetools:core/code-types",
        "types of the parses, shared with the grammars' component; no functions",
    ),
    (
        "wasi:io/error",
        "std's stream errors; no resource reaches anything",
    ),
    (
        "wasi:io/streams",
        "std's stdio plumbing; hosts give empty streams",
    ),
    (
        "wasi:io/poll",
        "blocking on streams above; nothing to wait for",
    ),
    (
        "wasi:cli/environment",
        "std's env and args; hosts give none",
    ),
    ("wasi:cli/exit", "std's process exit; ends only the guest"),
    ("wasi:cli/stdin", "std's stdin; hosts give an empty one"),
    ("wasi:cli/stdout", "std's stdout; hosts discard it"),
    ("wasi:cli/stderr", "panic messages; hosts discard them"),
    (
        "wasi:cli/terminal-input",
        "std's terminal query; no terminal",
    ),
    (
        "wasi:cli/terminal-output",
        "std's terminal query; no terminal",
    ),
    (
        "wasi:cli/terminal-stdin",
        "std's terminal query; no terminal",
    ),
    (
        "wasi:cli/terminal-stdout",
        "std's terminal query; no terminal",
    ),
    (
        "wasi:cli/terminal-stderr",
        "std's terminal query; no terminal",
    ),
    (
        "wasi:clocks/wall-clock",
        "std's SystemTime; reads the time only",
    ),
    (
        "wasi:clocks/monotonic-clock",
        "std's Instant; reads the time only",
    ),
    ("wasi:random/random", "hash seeds; reads entropy only"),
    (
        "wasi:random/insecure-seed",
        "hash seeds; reads entropy only",
    ),
];

/// Checks import names (as wasmtime lists them, e.g.
/// `wasi:io/streams@0.2.4`); returns one message per forbidden import.
pub fn check(imports: &[String]) -> Result<(), Vec<String>> {
    let problems: Vec<String> = imports
        .iter()
        .filter(|name| {
            let bare = name.split('@').next().unwrap_or(name);
            !ALLOWED.iter().any(|(allowed, _)| *allowed == bare)
        })
        .map(|name| {
            format!(
                "forbidden import {name}: the component may reach the outside only through \
                 filetools:core/host-fs; remove the code that needs it (see host/src/imports.rs for the allowed list)"
            )
        })
        .collect();
    if problems.is_empty()
        && !imports
            .iter()
            .any(|n| n.starts_with("filetools:core/host-fs"))
    {
        return Err(vec![
            "the component does not import filetools:core/host-fs".to_owned(),
        ]);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The only import of the contract the grammars' component may have: the
/// types it shares with the tools, which carry no functions.
const CODE_TYPES: &str = "filetools:core/code-types";

/// Checks the grammars' component's imports: only what std pulls in and
/// the types of its own interface, nothing else of the contract (it parses
/// the text it is given, and reaches no file).
pub fn check_code(imports: &[String]) -> Result<(), Vec<String>> {
    let problems: Vec<String> = imports
        .iter()
        .filter(|name| {
            let bare = name.split('@').next().unwrap_or(name);
            (bare.starts_with("filetools:") && bare != CODE_TYPES)
                || !ALLOWED.iter().any(|(allowed, _)| *allowed == bare)
        })
        .map(|name| {
            format!(
                "forbidden import {name} in the grammars' component: it may import only what \
                 std needs and {CODE_TYPES} (see host/src/imports.rs for the allowed list)"
            )
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filesystem_and_sockets_are_refused_by_name() {
        let imports = vec![
            "filetools:core/host-fs@0.7.0".to_owned(),
            "wasi:filesystem/preopens@0.2.6".to_owned(),
            "wasi:sockets/tcp@0.2.6".to_owned(),
        ];
        let Err(problems) = check(&imports) else {
            panic!("forbidden imports passed");
        };
        assert_eq!(problems.len(), 2);
        assert!(problems[0].contains("wasi:filesystem/preopens@0.2.6"));
    }

    #[test]
    fn the_grammars_reach_no_file() {
        assert!(check_code(&["wasi:clocks/monotonic-clock@0.2.6".to_owned()]).is_ok());
        assert!(check_code(&["filetools:core/code-types@0.7.0".to_owned()]).is_ok());
        for name in [
            "filetools:core/host-fs@0.7.0",
            "filetools:core/code@0.7.0",
            "wasi:filesystem/types@0.2.6",
        ] {
            assert!(check_code(&[name.to_owned()]).is_err(), "{name}");
        }
    }

    #[test]
    fn the_contract_alone_passes() {
        assert!(check(&["filetools:core/host-fs@0.7.0".to_owned()]).is_ok());
        assert!(check(&["wasi:io/streams@0.2.6".to_owned()]).is_err());
    }
}
