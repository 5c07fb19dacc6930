//! The MCP server's input and output as an rmcp transport that keeps the
//! protocol's promises itself:
//!
//! - every line is judged first ([`super::envelope`]): a refused one is
//!   answered with its id, and only what rmcp types and answers reaches it;
//! - at most [`MAX_OPEN`] requests are open at once, and the answers wait
//!   in a queue of [`OUTPUT_QUEUE`] messages: a client that stops reading
//!   stops the server reading too, so memory stays bounded;
//! - at the end of input every open request is answered before the server
//!   stops.
//!
//! The pipes are driven by the runtime's own reactor: no thread hand-off
//! per message.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use serde_json::json;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::JoinHandle;

use super::envelope::{Verdict, judge};
use crate::protocol::{Splitter, Taken};

/// Requests open at once; past this the server reads no more input until
/// one is answered.
pub const MAX_OPEN: usize = 64;

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

/// Serves `input` and `output`: returns the transport for rmcp and the
/// writer, which ends once everything is written (or the client stopped
/// reading).
pub(super) fn transport(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
    cap: u64,
) -> (Stdio, JoinHandle<io::Result<()>>) {
    let (to_rmcp, incoming) = mpsc::channel(INPUT_QUEUE);
    let (outgoing, queue) = mpsc::channel(OUTPUT_QUEUE);
    let open = Open::new();
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

/// The requests open now, each holding one of [`MAX_OPEN`] permits until
/// its answer is written.
#[derive(Clone)]
struct Open {
    permits: Arc<Semaphore>,
    held: Arc<Mutex<HashMap<RequestId, OwnedSemaphorePermit>>>,
}

impl Open {
    fn new() -> Self {
        Self {
            permits: Arc::new(Semaphore::new(MAX_OPEN)),
            held: Arc::default(),
        }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, OwnedSemaphorePermit>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn holds(&self, id: &RequestId) -> bool {
        self.held().contains_key(id)
    }

    /// Opens request `id` once a permit is free; false when the client is
    /// gone.
    async fn open(&self, id: RequestId) -> bool {
        match Arc::clone(&self.permits).acquire_owned().await {
            Ok(permit) => {
                self.held().insert(id, permit);
                true
            }
            Err(_) => false,
        }
    }

    /// Request `id` needs no more waiting for: answered, or cancelled
    /// (rmcp sends nothing for a cancelled request, as MCP asks).
    fn close(&self, id: &RequestId) {
        self.held().remove(id);
    }

    /// Waits until every open request is answered (or the client is gone).
    async fn all_answered(&self) {
        let all = u32::try_from(MAX_OPEN).unwrap_or(u32::MAX);
        let _ = self.permits.acquire_many(all).await;
    }

    /// Nothing more will be written: stop every wait.
    fn end(&self) {
        self.permits.close();
    }
}

/// Reads the client's lines, judges each and passes the good ones to rmcp;
/// when the input ends (or fails), waits for every open request's answer.
async fn read(
    input: impl AsyncRead + Unpin,
    to_rmcp: mpsc::Sender<ClientJsonRpcMessage>,
    outgoing: mpsc::Sender<Outgoing>,
    open: Open,
    cap: u64,
) {
    let mut input = BufReader::new(input);
    let mut splitter = Splitter::new(cap);
    while let Ok(chunk) = input.fill_buf().await {
        if chunk.is_empty() {
            if splitter.started() {
                take(splitter.take(), &to_rmcp, &outgoing, &open, cap).await;
            }
            break;
        }
        let (used, ended) = splitter.feed(chunk);
        input.consume(used);
        if ended && !take(splitter.take(), &to_rmcp, &outgoing, &open, cap).await {
            return;
        }
    }
    open.all_answered().await;
}

/// Handles one line; false once the server is stopping.
async fn take(
    taken: Taken,
    to_rmcp: &mpsc::Sender<ClientJsonRpcMessage>,
    outgoing: &mpsc::Sender<Outgoing>,
    open: &Open,
    cap: u64,
) -> bool {
    let message = match judge(&taken, cap) {
        Verdict::Drop => return true,
        Verdict::Refuse(answer) => return refuse(outgoing, answer.to_string()).await,
        Verdict::Pass(message) => *message,
    };
    match &message {
        JsonRpcMessage::Request(request) if open.holds(&request.id) => {
            let answer = json!({"jsonrpc": "2.0", "id": request.id, "error": {
                "code": INVALID_REQUEST,
                "message": format!("the id {} belongs to a request still running; nothing was done; give each request its own id", request.id),
            }});
            return refuse(outgoing, answer.to_string()).await;
        }
        JsonRpcMessage::Request(request) if !open.open(request.id.clone()).await => {
            return false;
        }
        JsonRpcMessage::Notification(notification) => {
            if let ClientNotification::CancelledNotification(cancelled) = &notification.notification
                && let Some(id) = &cancelled.params.request_id
            {
                open.close(id);
            }
        }
        _ => {}
    }
    to_rmcp.send(message).await.is_ok()
}

async fn refuse(outgoing: &mpsc::Sender<Outgoing>, answer: String) -> bool {
    outgoing.send(Outgoing::Refusal(answer)).await.is_ok()
}

/// Writes every message for the client, in the order queued, flushing
/// whenever the queue runs empty; each answer closes its request.
async fn write(
    mut queue: mpsc::Receiver<Outgoing>,
    output: impl AsyncWrite + Unpin,
    open: Open,
) -> io::Result<()> {
    let mut output = tokio::io::BufWriter::new(output);
    let written = async {
        while let Some(next) = queue.recv().await {
            let (line, answers) = match next {
                Outgoing::Refusal(line) => (line, None),
                Outgoing::Message(message) => {
                    (serde_json::to_string(&message)?, answered(&message))
                }
            };
            output.write_all(line.as_bytes()).await?;
            output.write_all(b"\n").await?;
            if let Some(id) = answers {
                open.close(&id);
            }
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
