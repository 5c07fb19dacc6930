//! What a request must show before it reaches the MCP service: a path
//! naming a workspace that exists, a `Host` this server answers to (no DNS
//! rebinding), no foreign `Origin`, the workspace's bearer token, and a
//! body within the cap. A refusal is a JSON-RPC error with an HTTP status,
//! and nothing runs.

use std::collections::HashMap;

use http::{HeaderMap, StatusCode, header};
use serde_json::json;

/// The shortest token taken: a word is not a secret.
pub const MIN_TOKEN_CHARS: usize = 16;

/// Tokens: for every workspace, or per workspace (several each, so one can
/// be rotated out while the next is in use).
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    /// Each opens every workspace.
    pub any: Vec<String>,
    /// Each opens the workspace named.
    pub each: HashMap<String, Vec<String>>,
}

impl Tokens {
    /// Whether any token is set (else requests need none).
    pub fn required(&self) -> bool {
        !self.any.is_empty() || !self.each.is_empty()
    }

    /// Reads a token file: a line with a token alone opens every
    /// workspace, `WORKSPACE TOKEN` one workspace; `#` starts a comment.
    /// A token is at least [`MIN_TOKEN_CHARS`] characters.
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let mut tokens = Self::default();
        for (number, line) in text.lines().map(str::trim).enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = number + 1;
            let (name, token) = match line.split_whitespace().collect::<Vec<_>>()[..] {
                [token] => (None, token),
                [name, token] => (Some(name), token),
                _ => anyhow::bail!("line {at}: a line is `TOKEN` or `WORKSPACE TOKEN`"),
            };
            if token.chars().count() < MIN_TOKEN_CHARS {
                anyhow::bail!(
                    "line {at}: a token has at least {MIN_TOKEN_CHARS} characters (make one with `openssl rand -hex 32`)"
                );
            }
            match name {
                None => tokens.any.push(token.to_owned()),
                Some(name) if super::workspaces::valid_name(name) => {
                    tokens
                        .each
                        .entry(name.to_owned())
                        .or_default()
                        .push(token.to_owned());
                }
                Some(name) => anyhow::bail!(
                    "line {at}: {name:?} is not a workspace name (letters, digits, `.`, `_`, `-`); a token alone opens every workspace"
                ),
            }
        }
        Ok(tokens)
    }

    /// Whether `presented` opens `workspace`.
    fn opens(&self, workspace: &str, presented: &str) -> bool {
        let matches = |token: &String| same(token.as_bytes(), presented.as_bytes());
        self.any.iter().any(matches)
            || self
                .each
                .get(workspace)
                .is_some_and(|t| t.iter().any(matches))
    }
}

/// Compares in time that does not depend on where the bytes differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The checks' settings.
#[derive(Debug, Clone)]
pub struct Gate {
    /// The tokens that open workspaces.
    pub tokens: Tokens,
    /// Host names (with or without a port) the server answers to; empty:
    /// any.
    pub hosts: Vec<String>,
    /// Origins a browser page may call from.
    pub origins: Vec<String>,
    /// The largest request body.
    pub max_body_bytes: u64,
}

/// A refused request.
#[derive(Debug)]
pub struct Refusal {
    /// The HTTP status.
    pub status: StatusCode,
    /// What was wrong.
    pub message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    /// The JSON-RPC error body.
    pub fn body(&self) -> String {
        let code = if self.status == StatusCode::NOT_FOUND {
            -32601
        } else {
            -32600
        };
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": self.message}})
            .to_string()
    }
}

/// The workspace name a path gives: `""` for `/mcp` when the server has
/// one root, `NAME` for `/mcp/NAME` when it has many.
pub fn workspace_of(path: &str, named: bool) -> Result<&str, Refusal> {
    let not_found = || {
        Refusal::new(
            StatusCode::NOT_FOUND,
            if named {
                "no such workspace: POST to /mcp/WORKSPACE"
            } else {
                "not found: POST to /mcp"
            },
        )
    };
    match (path.strip_prefix("/mcp"), named) {
        (Some(""), false) => Ok(""),
        (Some(rest), true) => rest
            .strip_prefix('/')
            .filter(|name| !name.is_empty() && !name.contains('/'))
            .ok_or_else(not_found),
        _ => Err(not_found()),
    }
}

impl Gate {
    /// Checks the headers of a request for `workspace`; `authority` is
    /// the one its target names, in the absolute form.
    pub fn check(
        &self,
        headers: &HeaderMap,
        authority: Option<&str>,
        workspace: &str,
    ) -> Result<(), Refusal> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        for host in std::iter::once(host).chain(authority) {
            if !self.hosts.is_empty()
                && !self.hosts.iter().any(|allowed| host_matches(allowed, host))
            {
                return Err(Refusal::new(
                    StatusCode::FORBIDDEN,
                    format!("Host {host:?} is not one this server answers to (--allow-host)"),
                ));
            }
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or_default();
            if !self.origins.iter().any(|allowed| allowed == origin) {
                return Err(Refusal::new(
                    StatusCode::FORBIDDEN,
                    format!("Origin {origin:?} may not call this server (--allow-origin)"),
                ));
            }
        }
        if self.tokens.required() {
            // The scheme's name is case-insensitive (RFC 7235).
            let presented = headers
                .get(header::AUTHORIZATION)
                .and_then(|h| h.to_str().ok())
                .and_then(|h| h.split_once(' '))
                .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
                .map_or("", |(_, token)| token);
            if !self.tokens.opens(workspace, presented.trim()) {
                return Err(Refusal::new(
                    StatusCode::UNAUTHORIZED,
                    "a bearer token for this workspace is required (Authorization: Bearer TOKEN)",
                ));
            }
        }
        let length = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| h.parse::<u64>().ok());
        if length.is_some_and(|length| length > self.max_body_bytes) {
            return Err(self.too_large());
        }
        Ok(())
    }

    /// The refusal of a body over the cap.
    pub fn too_large(&self) -> Refusal {
        Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is over {} bytes", self.max_body_bytes),
        )
    }

    /// The refusal when every slot for a request is taken.
    pub fn busy() -> Refusal {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is answering as many requests as it may; try again shortly",
        )
    }
}

/// Whether the `Host` header `host` is `allowed`: the same name, and the
/// same port when `allowed` names one.
fn host_matches(allowed: &str, host: &str) -> bool {
    let strip_port = |h: &str| -> String {
        if let Some(rest) = h.strip_prefix('[') {
            return rest.split(']').next().unwrap_or_default().to_owned();
        }
        match h.rsplit_once(':') {
            Some((name, port)) if !name.contains(':') && port.parse::<u16>().is_ok() => {
                name.to_owned()
            }
            _ => h.to_owned(),
        }
    };
    let has_port = |h: &str| strip_port(h) != h.trim_start_matches('[').trim_end_matches(']');
    if has_port(allowed) {
        allowed.eq_ignore_ascii_case(host)
    } else {
        strip_port(allowed).eq_ignore_ascii_case(&strip_port(host))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Pairs<'a> = &'a [(&'static str, &'a str)];

    fn headers(pairs: Pairs<'_>) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    fn gate() -> Gate {
        Gate {
            tokens: Tokens::parse("a s3cret-0123456789\nb other-0123456789\n").unwrap(),
            hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into()],
            origins: vec![],
            max_body_bytes: 100,
        }
    }

    #[test]
    fn a_request_shows_its_workspace_token_from_a_host_this_server_answers_to() {
        let good = [
            ("host", "127.0.0.1:8080"),
            ("authorization", "Bearer s3cret-0123456789"),
        ];
        assert!(gate().check(&headers(&good), None, "a").is_ok());
        let cases: [(Pairs<'_>, &str, StatusCode); 5] = [
            (&[("host", "127.0.0.1:8080")], "a", StatusCode::UNAUTHORIZED),
            (&good, "b", StatusCode::UNAUTHORIZED),
            (
                &[
                    ("host", "evil.example:8080"),
                    ("authorization", "Bearer s3cret-0123456789"),
                ],
                "a",
                StatusCode::FORBIDDEN,
            ),
            (
                &[
                    ("host", "[::1]:80"),
                    ("authorization", "Bearer s3cret-0123456789"),
                    ("origin", "http://evil.example"),
                ],
                "a",
                StatusCode::FORBIDDEN,
            ),
            (
                &[
                    ("host", "localhost"),
                    ("authorization", "Bearer s3cret-0123456789"),
                    ("content-length", "101"),
                ],
                "a",
                StatusCode::PAYLOAD_TOO_LARGE,
            ),
        ];
        for (pairs, workspace, status) in cases {
            assert_eq!(
                gate()
                    .check(&headers(pairs), None, workspace)
                    .unwrap_err()
                    .status,
                status
            );
        }
    }

    #[test]
    fn a_token_file_is_read_strictly() {
        let tokens =
            Tokens::parse("# old and new\nfirst-token-0123456789\nsecond-token-0123456789\n")
                .unwrap();
        assert!(
            tokens.opens("any", "first-token-0123456789")
                && tokens.opens("any", "second-token-0123456789")
        );
        for bad in [
            "alpha\n",
            "* star-token-0123456789\n",
            "a b c\n",
            "alpha short\n",
        ] {
            assert!(Tokens::parse(bad).is_err(), "{bad:?}");
        }
        let lower = [
            ("host", "localhost"),
            ("authorization", "bearer s3cret-0123456789"),
        ];
        assert!(gate().check(&headers(&lower), None, "a").is_ok());
        let absolute = [
            ("host", "localhost"),
            ("authorization", "Bearer s3cret-0123456789"),
        ];
        let refused = gate().check(&headers(&absolute), Some("evil.example"), "a");
        assert_eq!(refused.unwrap_err().status, StatusCode::FORBIDDEN);
    }

    #[test]
    fn the_path_names_the_workspace() {
        assert_eq!(workspace_of("/mcp", false).unwrap(), "");
        assert_eq!(workspace_of("/mcp/docs", true).unwrap(), "docs");
        assert!(workspace_of("/mcp/docs", false).is_err());
        assert!(workspace_of("/mcp", true).is_err());
        assert!(workspace_of("/mcp/a/b", true).is_err());
        assert!(workspace_of("/other", false).is_err());
    }
}
