//! The HTTP front of `filetools serve`: each connection on hyper, each
//! request through the gate and then to rmcp's Streamable HTTP service.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::gate::{self, Gate, Refusal};
use super::handler::Handler;
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

/// Serves connections on `listener` until the runtime stops.
pub(super) async fn accept(listener: TcpListener, front: Arc<Front>) {
    loop {
        let Ok((stream, _peer)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let permit = Arc::clone(&front.connections).try_acquire_owned().ok();
        let front = Arc::clone(&front);
        tokio::spawn(async move {
            let full = permit.is_none();
            let service = service_fn(move |request| {
                let front = Arc::clone(&front);
                async move {
                    if full {
                        return Ok::<_, Infallible>(refused(&Gate::busy()));
                    }
                    Ok(route(request, &front).await)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}

async fn route(
    mut request: Request<Incoming>,
    front: &Front,
) -> Response<BoxBody<Bytes, Infallible>> {
    let name = match gate::workspace_of(request.uri().path(), front.workspaces.named()) {
        Ok(name) => name.to_owned(),
        Err(refusal) => return refused(&refusal),
    };
    if let Err(refusal) = front.gate.check(request.headers(), &name) {
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
    as_json_rpc(front.mcp.handle(request).await).await
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
    let body = response
        .into_body()
        .collect()
        .await
        .map(http_body_util::Collected::to_bytes)
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX_ERROR_BODY_BYTES)]);
    refused(&Refusal {
        status,
        message: text.trim().to_owned(),
    })
}
