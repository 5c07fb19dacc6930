//! The HTTP front of `filetools serve`: each connection on hyper, each
//! request through the gate and then to rmcp's Streamable HTTP service.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::gate::{self, Gate, Refusal};
use super::mcp_calls::Handler;
use super::workspaces::Workspaces;

pub(super) type Mcp = StreamableHttpService<Handler, LocalSessionManager>;

/// What every connection shares.
pub(super) struct Front {
    pub mcp: Mcp,
    pub gate: Gate,
    pub workspaces: Arc<Workspaces>,
    /// Connections open at once, at most.
    pub connections: Arc<Semaphore>,
}

fn refused(refusal: &Refusal) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from(refusal.body())).boxed());
    *response.status_mut() = refusal.status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

/// The longest wait for a request's head, from the connection or from
/// the answer before it: a client slower than this, or a kept-alive
/// connection idle this long, is closed.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a connection beyond the cap may take to be told so.
const REFUSE_TIMEOUT: Duration = Duration::from_secs(1);

/// Connections beyond the cap being told so at once; more are closed
/// unanswered.
const MAX_REFUSING: usize = 64;

/// A pause after a failed accept (out of descriptors, say), so the loop
/// does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves connections on `listener` until the runtime stops; beyond
/// [`Front::connections`], a connection gets one 503 and is closed.
pub(super) async fn accept(listener: TcpListener, front: Arc<Front>) {
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    loop {
        let Ok((stream, _peer)) = listener.accept().await else {
            tokio::time::sleep(ACCEPT_BACKOFF).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        if let Ok(permit) = Arc::clone(&front.connections).try_acquire_owned() {
            let front = Arc::clone(&front);
            tokio::spawn(async move {
                serve_connection(stream, front).await;
                drop(permit);
            });
        } else if let Ok(permit) = Arc::clone(&refusing).try_acquire_owned() {
            tokio::spawn(async move {
                refuse_connection(stream).await;
                drop(permit);
            });
        }
    }
}

/// One 503 that says when to come back, then the connection closes: a
/// client's pool retries on a new one.
async fn refuse_connection(stream: TcpStream) {
    let service = service_fn(|_request| async {
        let mut response = refused(&Gate::busy());
        let headers = response.headers_mut();
        headers.insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
        headers.insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        Ok::<_, Infallible>(response)
    });
    let serving = hyper::server::conn::http1::Builder::new()
        .keep_alive(false)
        .serve_connection(TokioIo::new(stream), service);
    let _ = tokio::time::timeout(REFUSE_TIMEOUT, serving).await;
}

/// Serves one connection, each request's head due within
/// [`HEADER_READ_TIMEOUT`].
async fn serve_connection(stream: TcpStream, front: Arc<Front>) {
    let service = service_fn(move |request| {
        let front = Arc::clone(&front);
        async move { Ok::<_, Infallible>(route(request, &front).await) }
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .serve_connection(TokioIo::new(stream), service)
        .await;
}

async fn route(
    mut request: Request<Incoming>,
    front: &Front,
) -> Response<BoxBody<Bytes, Infallible>> {
    let name = match gate::workspace_of(request.uri().path(), front.workspaces.named()) {
        Ok(name) => name.to_owned(),
        Err(refusal) => return refused(&refusal),
    };
    let authority = request.uri().authority().map(|a| a.as_str().to_owned());
    if let Err(refusal) = front
        .gate
        .check(request.headers(), authority.as_deref(), &name)
    {
        return refused(&refusal);
    }
    // Built already: no hop to a blocking thread.
    let workspace = if let Some(workspace) = front.workspaces.built(&name) {
        Ok(Ok(Some(workspace)))
    } else {
        let workspaces = Arc::clone(&front.workspaces);
        let lookup = name.clone();
        tokio::task::spawn_blocking(move || workspaces.get(&lookup)).await
    };
    let workspace = match workspace {
        Ok(Ok(Some(workspace))) => workspace,
        Ok(Ok(None)) => {
            return refused(&Refusal {
                status: http::StatusCode::NOT_FOUND,
                message: format!("no workspace {name:?} here"),
            });
        }
        Ok(Err(err)) => {
            return refused(&Refusal {
                status: http::StatusCode::INTERNAL_SERVER_ERROR,
                message: format!("the workspace's tools could not be started: {err:#}"),
            });
        }
        Err(err) => {
            return refused(&Refusal {
                status: http::StatusCode::INTERNAL_SERVER_ERROR,
                message: format!("the workspace's tools could not be started: {err}"),
            });
        }
    };
    request.extensions_mut().insert(workspace);
    let ending = request.method() == http::Method::DELETE;
    let mut response = as_json_rpc(front.mcp.handle(request).await).await;
    if ending && response.status() == http::StatusCode::ACCEPTED {
        // The session is gone when the transport answers: the SDKs expect
        // 200 (or 204) for that, and log a failed termination on 202.
        *response.status_mut() = http::StatusCode::OK;
    }
    response
}

/// The longest plain-text error body taken into a JSON-RPC error.
const MAX_ERROR_BODY_BYTES: usize = 4096;

/// A plain-text refusal from the transport (an unknown session, a bad
/// header) as a JSON-RPC error, like the gate's; anything else as it is.
async fn as_json_rpc(
    response: Response<BoxBody<Bytes, Infallible>>,
) -> Response<BoxBody<Bytes, Infallible>> {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/event-stream"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let body = body
        .collect()
        .await
        .map(http_body_util::Collected::to_bytes)
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX_ERROR_BODY_BYTES)]);
    let mut answer = refused(&Refusal {
        status,
        message: text.trim().to_owned(),
    });
    // Its other headers (`Allow`, say) still hold.
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}
