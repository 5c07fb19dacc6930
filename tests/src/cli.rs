//! Driving the `filetools` binary from tests and tools: a running
//! `filetools session` that answers one protocol line at a time, with a
//! timeout on every answer so a session that hangs is seen, not waited for.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

/// How long a call may take before the session is taken to hang.
pub const ANSWER_TIMEOUT: Duration = Duration::from_mins(1);

/// What runs a session that speaks the line protocol of `filetools
/// session`: the CLI, or a Node agent over the npm package.
#[derive(Debug, Clone, Copy)]
pub enum Runner<'a> {
    /// The `filetools` binary at this path.
    Cli(&'a Path),
    /// `node` running the npm package's session script at this path
    /// (`js/scripts/session.mjs`).
    Node(&'a Path),
}

impl std::fmt::Display for Runner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Runner::Cli(_) => "the CLI",
            Runner::Node(_) => "Node",
        })
    }
}

/// A running `filetools session`.
#[derive(Debug)]
pub struct SessionProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
}

impl SessionProcess {
    /// Starts `bin session --root root` with `extra` arguments.
    pub fn start(bin: &Path, root: &Path, extra: &[&str]) -> Result<Self> {
        Self::start_command(bin, "session", root, extra)
    }

    /// Starts `bin mcp --root root` with `extra` arguments: an MCP server
    /// spoken to in JSON-RPC lines (see [`McpClient`]).
    pub fn start_mcp(bin: &Path, root: &Path, extra: &[&str]) -> Result<Self> {
        Self::start_command(bin, "mcp", root, extra)
    }

    /// Starts a session of `runner` over `root` with `extra` arguments.
    pub fn start_with(runner: Runner<'_>, root: &Path, extra: &[&str]) -> Result<Self> {
        match runner {
            Runner::Cli(bin) => Self::start(bin, root, extra),
            Runner::Node(script) => {
                let mut command = Command::new("node");
                command.arg(script).arg("--root").arg(root).args(extra);
                Self::spawn(command, script)
            }
        }
    }

    /// Starts `command`, an MCP server over stdio that is not ours (the
    /// reference server a benchmark holds `filetools mcp` against).
    pub fn start_other(command: Command) -> Result<Self> {
        let program = std::path::PathBuf::from(command.get_program());
        Self::spawn(command, &program)
    }

    fn start_command(bin: &Path, command: &str, root: &Path, extra: &[&str]) -> Result<Self> {
        let mut line = Command::new(bin);
        line.args([command, "--root"]).arg(root).args(extra);
        Self::spawn(line, bin)
    }

    fn spawn(mut command: Command, bin: &Path) -> Result<Self> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().context("no stdout")?;
        let (send, answers) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Self {
            child,
            stdin,
            answers,
        })
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes raw bytes to the session's input and flushes them.
    pub fn send_raw(&mut self, bytes: &[u8]) -> Result<()> {
        let stdin = self.stdin.as_mut().context("stdin closed")?;
        stdin.write_all(bytes)?;
        stdin.flush()?;
        Ok(())
    }

    /// The next answer, parsed; `None` when none came within `timeout`.
    /// An error when the session ended or the answer is not JSON.
    pub fn answer_within(&mut self, timeout: Duration) -> Result<Option<Value>> {
        match self.answers.recv_timeout(timeout) {
            Ok(line) => Ok(Some(
                serde_json::from_str(&line)
                    .with_context(|| format!("answer is not JSON: {line}"))?,
            )),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => bail!("the session ended"),
        }
    }

    /// Sends one protocol line and waits for its answer.
    pub fn send(&mut self, line: &str) -> Result<Value> {
        self.send_raw(format!("{line}\n").as_bytes())?;
        self.answer_within(ANSWER_TIMEOUT)?
            .with_context(|| format!("no answer within {ANSWER_TIMEOUT:?} to {line}"))
    }

    /// Calls `tool` with `args`.
    pub fn call(&mut self, tool: &str, args: &Value) -> Result<Value> {
        self.send(&serde_json::json!({ "tool": tool, "args": args }).to_string())
    }

    /// Kills the process at once (`SIGKILL`) and reaps it.
    pub fn kill(mut self) -> Result<ExitStatus> {
        let _ = self.child.kill();
        Ok(self.child.wait()?)
    }

    /// Closes the input and waits for the process to end.
    pub fn finish(mut self) -> Result<ExitStatus> {
        drop(self.stdin.take());
        Ok(self.child.wait()?)
    }
}

impl Drop for SessionProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A `filetools mcp` process spoken to in raw JSON-RPC lines, as an MCP
/// client speaks over stdio.
#[derive(Debug)]
pub struct McpClient {
    process: SessionProcess,
    next_id: u64,
    /// The progress notifications received while waiting for answers.
    pub progress: Vec<Value>,
}

impl McpClient {
    /// Starts `bin mcp --root root extra…` and initializes it with protocol
    /// `version`; returns the client and the `initialize` result.
    pub fn start(bin: &Path, root: &Path, extra: &[&str], version: &str) -> Result<(Self, Value)> {
        Self::over(SessionProcess::start_mcp(bin, root, extra)?, version)
    }

    /// Initializes the MCP server running as `process` with protocol
    /// `version`; returns the client and the `initialize` result.
    pub fn over(process: SessionProcess, version: &str) -> Result<(Self, Value)> {
        let mut client = Self {
            process,
            next_id: 0,
            progress: Vec::new(),
        };
        let init = client.request(
            "initialize",
            &serde_json::json!({"protocolVersion": version, "capabilities": {},
                "clientInfo": {"name": "filetools-tests", "version": "1"}}),
        )?;
        client.notify("notifications/initialized")?;
        Ok((client, init))
    }

    /// Sends a notification without parameters.
    pub fn notify(&mut self, method: &str) -> Result<()> {
        let line = serde_json::json!({"jsonrpc": "2.0", "method": method});
        self.process.send_raw(format!("{line}\n").as_bytes())
    }

    /// Sends a request and waits for its result (an error answer is an
    /// error); notifications on the way are kept in `progress`.
    pub fn request(&mut self, method: &str, params: &Value) -> Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        let line =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.process.send_raw(format!("{line}\n").as_bytes())?;
        loop {
            let message = self
                .process
                .answer_within(ANSWER_TIMEOUT)?
                .with_context(|| format!("no answer within {ANSWER_TIMEOUT:?} to {method}"))?;
            if message["id"] == id {
                if let Some(error) = message.get("error") {
                    bail!("{method} failed: {error}");
                }
                return Ok(message["result"].clone());
            }
            if message["method"] == "notifications/progress" {
                self.progress.push(message["params"].clone());
            }
        }
    }

    /// Sends raw bytes as one message and waits for the next answer to
    /// any request (notifications on the way are kept in `progress`).
    pub fn send_raw(&mut self, bytes: &[u8]) -> Result<Value> {
        self.process.send_raw(bytes)?;
        loop {
            let message = self
                .process
                .answer_within(ANSWER_TIMEOUT)?
                .with_context(|| format!("no answer within {ANSWER_TIMEOUT:?}"))?;
            if message.get("id").is_some() {
                return Ok(message);
            }
            if message["method"] == "notifications/progress" {
                self.progress.push(message["params"].clone());
            }
        }
    }

    /// Calls `tool` with `args`: the `CallToolResult`.
    pub fn call(&mut self, tool: &str, args: &Value) -> Result<Value> {
        self.request(
            "tools/call",
            &serde_json::json!({"name": tool, "arguments": args}),
        )
    }
}

/// Whether `answer` is a result without an error.
pub fn succeeded(answer: &Value) -> bool {
    answer["isError"] == false
}

/// The error code of an error result (`structuredContent.error`).
pub fn error_code(answer: &Value) -> Option<&str> {
    answer["structuredContent"]["error"].as_str()
}

/// The text of a result.
pub fn text(answer: &Value) -> &str {
    answer["content"][0]["text"].as_str().unwrap_or_default()
}
