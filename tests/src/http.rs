//! A bare HTTP/1.1 client for `filetools serve`: one request per
//! connection, JSON-RPC in, the answer out of a JSON or an event-stream
//! body; and the server as a child process.

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use serde_json::{Value, json};

/// How long a request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_mins(1);

/// A response: status, headers (names lower-case) and body.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    /// The header `name` (lower-case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC message in the body: the body itself, or the last
    /// `data:` event that is one.
    pub fn message(&self) -> Result<Value> {
        if let Ok(value) = serde_json::from_str::<Value>(&self.body) {
            return Ok(value);
        }
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .rfind(|value| value.get("jsonrpc").is_some())
            .with_context(|| format!("no JSON-RPC message in {:?}", self.body))
    }
}

/// Sends `body` to `address` (`host:port`) at `path` with `headers`.
pub fn post(address: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Result<Response> {
    let mut stream =
        TcpStream::connect(address).with_context(|| format!("connecting to {address}"))?;
    stream.set_read_timeout(Some(REQUEST_TIMEOUT))?;
    let length = body.len().to_string();
    send_head(&mut stream, address, path, headers, &length)?;
    // A server that refuses early may close before the body is sent.
    let _ = stream.write_all(body);
    read_response(stream)
}

/// Writes a POST's head, closing the connection after the answer:
/// `host` is `address` unless `headers` name one, and the body's length is
/// `length` unless `headers` name one.
pub fn send_head(
    stream: &mut TcpStream,
    address: &str,
    path: &str,
    headers: &[(&str, &str)],
    length: &str,
) -> Result<()> {
    stream.write_all(head(address, path, headers, length, true).as_bytes())?;
    Ok(())
}

/// A POST's head (see [`send_head`]); `close` asks for the connection to
/// end with the answer.
fn head(address: &str, path: &str, headers: &[(&str, &str)], length: &str, close: bool) -> String {
    let named = |name: &str| headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    let mut head = format!(
        "POST {path} HTTP/1.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n"
    );
    if close {
        head.push_str("connection: close\r\n");
    }
    if !named("host") {
        let _ = write!(head, "host: {address}\r\n");
    }
    if !named("content-length") && !named("transfer-encoding") {
        let _ = write!(head, "content-length: {length}\r\n");
    }
    for (name, value) in headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    head.push_str("\r\n");
    head
}

/// Reads a response from a connection the server closes after it.
pub fn read_response(stream: TcpStream) -> Result<Response> {
    read_from(&mut BufReader::new(stream))
}

/// One line, which must be there.
fn line(reader: &mut BufReader<TcpStream>) -> Result<String> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        bail!("the server closed the connection");
    }
    Ok(line)
}

/// Reads one response: its body to its length, to its last chunk, or (with
/// neither) to the connection's end.
fn read_from(reader: &mut BufReader<TcpStream>) -> Result<Response> {
    let status_line = line(reader)?;
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("not an HTTP status line: {status_line:?}"))?;
    let mut response = Response {
        status,
        headers: Vec::new(),
        body: String::new(),
    };
    loop {
        let line = line(reader)?;
        let Some((name, value)) = line.trim_end().split_once(':') else {
            break;
        };
        response
            .headers
            .push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let mut body = Vec::new();
    if let Some(length) = response.header("content-length") {
        body.resize(length.parse()?, 0);
        reader.read_exact(&mut body)?;
    } else if response
        .header("transfer-encoding")
        .is_some_and(|v| v.contains("chunked"))
    {
        loop {
            let size = usize::from_str_radix(line(reader)?.trim(), 16)?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        reader.read_to_end(&mut body)?;
    }
    response.body = String::from_utf8_lossy(&body).into_owned();
    Ok(response)
}

/// The headers the 2026-07-28 revision sends with a call of `tool`.
fn call_headers(tool: &str) -> [(&'static str, &str); 3] {
    [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ]
}

/// The result a call's response carries.
fn result_of(response: &Response) -> Result<Value> {
    if response.status != 200 {
        bail!("HTTP {}: {}", response.status, response.body);
    }
    let message = response.message()?;
    message
        .get("result")
        .cloned()
        .with_context(|| format!("not a result: {message}"))
}

/// A JSON-RPC `tools/call` of `tool` with `arguments`, as the 2026-07-28
/// revision sends it (no protocol session).
pub fn tool_call(id: u64, tool: &str, arguments: &Value) -> Vec<u8> {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "filetools-tests", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    })
    .to_string()
    .into_bytes()
}

/// Calls `tool` at `address` and `path` on the 2026-07-28 revision, with
/// the headers it asks for; the result.
pub fn call_at(
    address: &str,
    path: &str,
    headers: &[(&str, &str)],
    tool: &str,
    arguments: &Value,
) -> Result<Value> {
    let mut headers = headers.to_vec();
    headers.extend(call_headers(tool));
    result_of(&post(
        address,
        path,
        &headers,
        &tool_call(1, tool, arguments),
    )?)
}

/// One kept-alive connection, as SDK clients keep theirs: a request at a
/// time, each answer read to its end (its length, or its last chunk).
#[derive(Debug)]
pub struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    address: String,
}

impl Connection {
    /// Connects to `address`.
    pub fn open(address: &str) -> Result<Self> {
        let stream =
            TcpStream::connect(address).with_context(|| format!("connecting to {address}"))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(REQUEST_TIMEOUT))?;
        Ok(Self {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            address: address.to_owned(),
        })
    }

    /// Calls `tool` on the 2026-07-28 revision at `path`; the result.
    pub fn call(
        &mut self,
        path: &str,
        headers: &[(&str, &str)],
        tool: &str,
        arguments: &Value,
    ) -> Result<Value> {
        let body = tool_call(1, tool, arguments);
        let mut headers = headers.to_vec();
        headers.extend(call_headers(tool));
        let length = body.len().to_string();
        let mut request = head(&self.address, path, &headers, &length, false).into_bytes();
        request.extend_from_slice(&body);
        self.writer.write_all(&request)?;
        result_of(&read_from(&mut self.reader)?)
    }
}

/// A running `filetools serve`, killed when dropped.
#[derive(Debug)]
pub struct ServeProcess {
    pub child: Child,
    /// `host:port` it listens on.
    pub address: String,
}

impl ServeProcess {
    /// Starts `binary serve --listen 127.0.0.1:0 args…` and waits for the
    /// line that names its address.
    pub fn start(binary: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<Self> {
        Self::start_on(binary, "127.0.0.1:0", args, env)
    }

    /// [`ServeProcess::start`] listening on `listen`.
    pub fn start_on(
        binary: &Path,
        listen: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Result<Self> {
        let mut command = Command::new(binary);
        command
            .arg("serve")
            .args(["--listen", listen])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().context("starting filetools serve")?;
        let stderr = child.stderr.take().context("no stderr")?;
        let mut lines = BufReader::new(stderr).lines();
        let address = loop {
            let Some(line) = lines.next() else {
                let _ = child.wait();
                bail!("filetools serve stopped before it listened");
            };
            let line = line?;
            if let Some(rest) = line.split("http://").nth(1) {
                break rest.split('/').next().unwrap_or_default().to_owned();
            }
        };
        // Later lines (warnings) are drained so the server never blocks.
        std::thread::spawn(move || lines.for_each(drop));
        Ok(Self { child, address })
    }

    /// Calls `tool` on the 2026-07-28 revision at `path`; the result.
    pub fn call(
        &self,
        path: &str,
        headers: &[(&str, &str)],
        tool: &str,
        arguments: &Value,
    ) -> Result<Value> {
        call_at(&self.address, path, headers, tool, arguments)
    }

    /// Kills it at once (`SIGKILL`).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
