//! The MCP server's input and output as an rmcp transport that keeps the
//! protocol's promises itself:
//!
//! - every line is judged first ([`super::envelope`]): a refused one is
//!   answered with its id, and only what rmcp types and answers reaches it;
//! - at most [`super::MAX_OPEN`] requests are open at once ([`Open`]), and
//!   the answers wait in a queue of [`OUTPUT_QUEUE`] messages; past that,
//!   up to [`MAX_WAITING`] messages read wait for a permit, and then a
//!   client that stops reading stops the server reading too, so memory
//!   stays bounded;
//! - a cancel is handled here, also while every permit is held: the call is
//!   told and its answer is not written, or a request still waiting is
//!   dropped (rmcp's own handling would free the id before the call ends);
//! - notifications and responses before the first request are dropped
//!   (rmcp, waiting for `initialize`, would stop the whole session);
//! - at the end of input every open request is answered before the server
//!   stops.
//!
//! The pipes are driven by the runtime's own reactor: no thread hand-off
//! per message.

use std::collections::VecDeque;
use std::io;

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use serde_json::json;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::envelope::{Verdict, judge};
use super::open::Open;
use crate::protocol::{Line, Splitter, Taken};

/// Messages waiting to be written to the client.
const OUTPUT_QUEUE: usize = 64;

/// Messages read and judged, waiting for rmcp to take them.
const INPUT_QUEUE: usize = 16;

/// JSON-RPC: the request is not one the server will run.
const INVALID_REQUEST: i64 = -32600;

/// The transport rmcp serves on.
pub(super) struct Stdio {
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    outgoing: mpsc::Sender<Outgoing>,
}

/// A message for the client.
enum Outgoing {
    /// From rmcp: an answer, or a notification such as progress.
    Message(Box<ServerJsonRpcMessage>),
    /// A refusal of a line rmcp never saw.
    Refusal(String),
}

/// Serves `input` and `output` with the requests kept in `open`: returns
/// the transport for rmcp and the writer, which ends once everything is
/// written (or the client stopped reading).
pub(super) fn transport(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
    cap: u64,
    open: Open,
) -> (Stdio, JoinHandle<io::Result<()>>) {
    let (to_rmcp, incoming) = mpsc::channel(INPUT_QUEUE);
    let (outgoing, queue) = mpsc::channel(OUTPUT_QUEUE);
    tokio::spawn(read(input, to_rmcp, outgoing.clone(), open.clone(), cap));
    let writer = tokio::spawn(write(queue, output, open));
    (Stdio { incoming, outgoing }, writer)
}

impl Transport<RoleServer> for Stdio {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let outgoing = self.outgoing.clone();
        async move {
            outgoing
                .send(Outgoing::Message(Box::new(item)))
                .await
                .map_err(|_| {
                    io::Error::new(io::ErrorKind::BrokenPipe, "the client stopped reading")
                })
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ClientJsonRpcMessage>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.incoming.close();
        Ok(())
    }
}

/// Messages read while every request permit was held, waiting for one:
/// the reader goes on reading past them to see cancels, up to this many.
const MAX_WAITING: usize = 64;

/// Bytes of the lines waiting at most (at least one waits, whatever its
/// size).
const MAX_WAITING_BYTES: usize = 4 << 20;

/// Reads the client's lines, judges each and passes the good ones to rmcp;
/// when the input ends (or fails), waits for every open request's answer.
/// While every permit is held, what is read waits in order, and a cancel
/// still reaches the call it names at once.
async fn read(
    input: impl AsyncRead + Unpin,
    to_rmcp: mpsc::Sender<ClientJsonRpcMessage>,
    outgoing: mpsc::Sender<Outgoing>,
    open: Open,
    cap: u64,
) {
    let mut input = BufReader::new(input);
    let mut splitter = Splitter::new(cap);
    let mut reader = Reader {
        to_rmcp,
        outgoing,
        open,
        cap,
        started: false,
        waiting: VecDeque::new(),
        waiting_bytes: 0,
    };
    let mut ended = false;
    loop {
        match reader.pass_waiting().await {
            Some(true) => {}
            Some(false) => {
                if ended || reader.full() {
                    // Nothing to read (or no room to): wait for a permit.
                    let Some(permit) = reader.open.permit().await else {
                        return;
                    };
                    if !reader.pass_first(permit).await {
                        return;
                    }
                    continue;
                }
            }
            None => return,
        }
        if ended {
            break;
        }
        let waiting = !reader.waiting.is_empty();
        tokio::select! {
            biased;
            permit = reader.open.permit(), if waiting => {
                let Some(permit) = permit else { return };
                if !reader.pass_first(permit).await {
                    return;
                }
            }
            chunk = input.fill_buf() => {
                let Ok(chunk) = chunk else {
                    ended = true;
                    continue;
                };
                if chunk.is_empty() {
                    if splitter.started() && !reader.take(splitter.take()).await {
                        return;
                    }
                    ended = true;
                    continue;
                }
                let (used, line_ended) = splitter.feed(chunk);
                input.consume(used);
                if line_ended && !reader.take(splitter.take()).await {
                    return;
                }
            }
        }
    }
    reader.open.all_answered().await;
}

/// Where the reader passes each line.
struct Reader {
    to_rmcp: mpsc::Sender<ClientJsonRpcMessage>,
    outgoing: mpsc::Sender<Outgoing>,
    open: Open,
    cap: u64,
    /// Whether a request other than `ping` has gone to rmcp.
    started: bool,
    /// Messages read while every permit was held, in order, with their
    /// lines' sizes.
    waiting: VecDeque<(ClientJsonRpcMessage, usize)>,
    waiting_bytes: usize,
}

impl Reader {
    /// Handles one line; false once the server is stopping.
    async fn take(&mut self, taken: Taken) -> bool {
        let message = match judge(&taken, self.cap) {
            Verdict::Drop => return true,
            Verdict::Refuse(answer) => return refuse(&self.outgoing, answer.to_string()).await,
            Verdict::Pass(message) => *message,
        };
        match &message {
            JsonRpcMessage::Request(request) if self.holds(&request.id) => {
                // Not with that id: the client would take it for the
                // answer to the request still running.
                let answer = json!({"jsonrpc": "2.0", "id": null, "error": {
                    "code": INVALID_REQUEST,
                    "message": format!("the id {} belongs to a request still running; nothing was done; give each request its own id", request.id),
                }});
                return refuse(&self.outgoing, answer.to_string()).await;
            }
            JsonRpcMessage::Request(request) => {
                self.started |= !matches!(request.request, ClientRequest::PingRequest(_));
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                {
                    if let Some(id) = &cancelled.params.request_id {
                        self.cancel(id);
                    }
                    return true;
                }
                if !self.started {
                    return true;
                }
            }
            _ if !self.started => return true,
            _ => {}
        }
        let bytes = match &taken.line {
            Line::Text(text) => text.len(),
            // Refused by the judge: never passed.
            _ => 0,
        };
        self.waiting_bytes += bytes;
        self.waiting.push_back((message, bytes));
        self.pass_waiting().await.is_some()
    }

    /// Whether request `id` is open or waiting.
    fn holds(&self, id: &RequestId) -> bool {
        self.open.holds(id) || self.waiting.iter().any(|(m, _)| request_id(m) == Some(id))
    }

    /// The client cancelled request `id`: a call running is told, and one
    /// still waiting is dropped unrun (MCP asks that it get no answer).
    fn cancel(&mut self, id: &RequestId) {
        self.open.cancel(id);
        let at = self
            .waiting
            .iter()
            .position(|(m, _)| request_id(m) == Some(id));
        if let Some((_, bytes)) = at.and_then(|at| self.waiting.remove(at)) {
            self.waiting_bytes -= bytes;
        }
    }

    /// Whether no more may wait.
    fn full(&self) -> bool {
        self.waiting.len() >= MAX_WAITING || self.waiting_bytes >= MAX_WAITING_BYTES
    }

    /// Passes on what waits, in order, while permits are free: `Some(true)`
    /// when nothing waits now, `Some(false)` when the first waiting request
    /// needs a permit, `None` once the server is stopping.
    async fn pass_waiting(&mut self) -> Option<bool> {
        while let Some((message, _)) = self.waiting.front() {
            if let Some(id) = request_id(message) {
                match self.open.try_open(id) {
                    Some(true) => {}
                    Some(false) => return Some(false),
                    None => return None,
                }
            }
            if !self.send_first().await {
                return None;
            }
        }
        Some(true)
    }

    /// Opens the first waiting request with `permit` and passes it on.
    async fn pass_first(&mut self, permit: tokio::sync::OwnedSemaphorePermit) -> bool {
        let Some(id) = self
            .waiting
            .front()
            .and_then(|(m, _)| request_id(m))
            .cloned()
        else {
            return true;
        };
        self.open.open_with(id, permit);
        self.send_first().await
    }

    /// Passes the first waiting message to rmcp.
    async fn send_first(&mut self) -> bool {
        let Some((message, bytes)) = self.waiting.pop_front() else {
            return true;
        };
        self.waiting_bytes -= bytes;
        self.to_rmcp.send(message).await.is_ok()
    }
}

/// The id of `message` when it is a request.
fn request_id(message: &ClientJsonRpcMessage) -> Option<&RequestId> {
    match message {
        JsonRpcMessage::Request(request) => Some(&request.id),
        _ => None,
    }
}

async fn refuse(outgoing: &mpsc::Sender<Outgoing>, answer: String) -> bool {
    outgoing.send(Outgoing::Refusal(answer)).await.is_ok()
}

/// Writes every message for the client, in the order queued, flushing
/// whenever the queue runs empty; each answer closes its request, and the
/// answer of a cancelled one is dropped.
async fn write(
    mut queue: mpsc::Receiver<Outgoing>,
    output: impl AsyncWrite + Unpin,
    open: Open,
) -> io::Result<()> {
    let mut output = tokio::io::BufWriter::new(output);
    let written = async {
        while let Some(next) = queue.recv().await {
            let line = match next {
                Outgoing::Refusal(line) => line,
                Outgoing::Message(message) => match answered(&message) {
                    // Cancelled: MCP asks that it get no answer.
                    Some(id) if !open.answered(&id) => continue,
                    _ => serde_json::to_string(&message)?,
                },
            };
            output.write_all(line.as_bytes()).await?;
            output.write_all(b"\n").await?;
            if queue.is_empty() {
                output.flush().await?;
            }
        }
        output.flush().await
    }
    .await;
    open.end();
    written
}

/// The request `message` answers, if it is an answer.
fn answered(message: &ServerJsonRpcMessage) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Response(response) => Some(response.id.clone()),
        JsonRpcMessage::Error(error) => error.id.clone(),
        _ => None,
    }
}
