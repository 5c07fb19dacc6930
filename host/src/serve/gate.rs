//! What a request must show before it reaches the MCP service: a path
//! naming a workspace that exists, a `Host` this server answers to (no DNS
//! rebinding), no foreign `Origin`, the workspace's bearer token, and a
//! body within the cap. A refusal is a JSON-RPC error with an HTTP status,
//! and nothing runs.

use std::collections::HashMap;

use http::{HeaderMap, StatusCode, header};
use serde_json::json;

/// Tokens: one for every workspace, or one per workspace.
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    /// Opens every workspace.
    pub any: Option<String>,
    /// Opens the workspace named.
    pub each: HashMap<String, String>,
}

impl Tokens {
    /// Whether any token is set (else requests need none).
    pub fn required(&self) -> bool {
        self.any.is_some() || !self.each.is_empty()
    }

    /// Reads a token file: a line with a token alone opens every
    /// workspace, `NAME TOKEN` one workspace; `#` starts a comment.
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let mut tokens = Self::default();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.split_whitespace().collect::<Vec<_>>()[..] {
                [token] => tokens.any = Some(token.to_owned()),
                [name, token] => {
                    tokens.each.insert(name.to_owned(), token.to_owned());
                }
                _ => anyhow::bail!("a token file line is `TOKEN` or `WORKSPACE TOKEN`"),
            }
        }
        Ok(tokens)
    }

    /// Whether `presented` opens `workspace`.
    fn opens(&self, workspace: &str, presented: &str) -> bool {
        let matches = |token: &String| same(token.as_bytes(), presented.as_bytes());
        self.any.as_ref().is_some_and(matches) || self.each.get(workspace).is_some_and(matches)
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
    /// Checks the headers of a request for `workspace`.
    pub fn check(&self, headers: &HeaderMap, workspace: &str) -> Result<(), Refusal> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        if !self.hosts.is_empty() && !self.hosts.iter().any(|allowed| host_matches(allowed, host)) {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                format!("Host {host:?} is not one this server answers to (--allow-host)"),
            ));
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
            let presented = headers
                .get(header::AUTHORIZATION)
                .and_then(|h| h.to_str().ok())
                .and_then(|h| h.strip_prefix("Bearer "))
                .unwrap_or_default();
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
            tokens: Tokens::parse("a s3cret\nb other\n").unwrap(),
            hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into()],
            origins: vec![],
            max_body_bytes: 100,
        }
    }

    #[test]
    fn a_request_shows_its_workspace_token_from_a_host_this_server_answers_to() {
        let good = [
            ("host", "127.0.0.1:8080"),
            ("authorization", "Bearer s3cret"),
        ];
        assert!(gate().check(&headers(&good), "a").is_ok());
        let cases: [(Pairs<'_>, &str, StatusCode); 5] = [
            (&[("host", "127.0.0.1:8080")], "a", StatusCode::UNAUTHORIZED),
            (&good, "b", StatusCode::UNAUTHORIZED),
            (
                &[
                    ("host", "evil.example:8080"),
                    ("authorization", "Bearer s3cret"),
                ],
                "a",
                StatusCode::FORBIDDEN,
            ),
            (
                &[
                    ("host", "[::1]:80"),
                    ("authorization", "Bearer s3cret"),
                    ("origin", "http://evil.example"),
                ],
                "a",
                StatusCode::FORBIDDEN,
            ),
            (
                &[
                    ("host", "localhost"),
                    ("authorization", "Bearer s3cret"),
                    ("content-length", "101"),
                ],
                "a",
                StatusCode::PAYLOAD_TOO_LARGE,
            ),
        ];
        for (pairs, workspace, status) in cases {
            assert_eq!(
                gate().check(&headers(pairs), workspace).unwrap_err().status,
                status
            );
        }
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
