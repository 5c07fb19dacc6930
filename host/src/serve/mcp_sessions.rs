//! The MCP sessions of clients on the 2025 revisions, kept in the session
//! store too: a client whose next request reaches another replica, with
//! the `Mcp-Session-Id` this one gave, goes on without a new handshake.

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::common::server_side_http::SessionId;
use rmcp::transport::streamable_http_server::session::SessionManager as _;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore as McpSessionStore, SessionStoreError,
};

use super::store::{EndsSeen, SessionStore, Turn, Update};

/// Keys of the handshakes kept.
const KEY_PREFIX: &str = "mcp-handshake/";

/// The session store as rmcp's store of handshakes.
#[derive(Debug)]
pub(super) struct Handshakes(pub Arc<dyn SessionStore>);

fn boxed(err: &anyhow::Error) -> SessionStoreError {
    format!("{err:#}").into()
}

impl Handshakes {
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&dyn SessionStore) -> anyhow::Result<T> + Send + 'static,
    ) -> Result<T, SessionStoreError> {
        let store = Arc::clone(&self.0);
        tokio::task::spawn_blocking(move || work(store.as_ref()))
            .await
            .map_err(|e| SessionStoreError::from(e.to_string()))?
            .map_err(|e| boxed(&e))
    }
}

#[async_trait::async_trait]
impl McpSessionStore for Handshakes {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let key = format!("{KEY_PREFIX}{session_id}");
        let stored = self.blocking(move |store| store.load(&key)).await?;
        match stored {
            // Emptied when the client ended the session.
            Some(stored) if stored.log.is_empty() => Ok(None),
            Some(stored) => Ok(Some(serde_json::from_str(&stored.log)?)),
            None => Ok(None),
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let key = format!("{KEY_PREFIX}{session_id}");
        let json = serde_json::to_string(state)?;
        self.blocking(move |store| {
            let version = store.version(&key)?.unwrap_or(0);
            store
                .save(&key, version, Update::Replace(&json), Turn::Free)
                .map(drop)
        })
        .await
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        // Emptied, not removed (the store has no removal): no replica
        // restores a session its client ended; and recorded as ended, so
        // a replica that holds it lets it go (see `let_go_of_ended`).
        let key = format!("{KEY_PREFIX}{session_id}");
        let id = session_id.to_owned();
        self.blocking(move |store| {
            let version = store.version(&key)?.unwrap_or(0);
            store.save(&key, version, Update::Replace(""), Turn::Free)?;
            store.end_handshake(&id)
        })
        .await
    }
}

/// How often a replica looks for handshakes ended on another: a `DELETE`
/// reaches every replica within about this long.
pub(super) const ENDS_LOOK_EVERY: Duration = Duration::from_secs(1);

/// Forever: every [`ENDS_LOOK_EVERY`], the handshakes clients ended on any
/// replica are closed here too, so none goes on answering a client that
/// ended it. One look at the store per interval, not one per request.
pub(super) async fn let_go_of_ended(store: Arc<dyn SessionStore>, held: Arc<LocalSessionManager>) {
    let mut seen = Some(EndsSeen::default());
    let mut ticks = tokio::time::interval(ENDS_LOOK_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let store = Arc::clone(&store);
        let mut looking = seen.take().unwrap_or_default();
        let looked = tokio::task::spawn_blocking(move || {
            let ended = store.ended_handshakes(&mut looking);
            (looking, ended)
        })
        .await;
        let Ok((looked, ended)) = looked else {
            continue;
        };
        seen = Some(looked);
        // A store that cannot be reached is asked again at the next tick.
        for id in ended.unwrap_or_default() {
            let _ = held.close_session(&SessionId::from(id)).await;
        }
    }
}
