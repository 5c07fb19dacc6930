//! The MCP sessions of clients on the 2025 revisions, kept in the session
//! store too: a client whose next request reaches another replica, with
//! the `Mcp-Session-Id` this one gave, goes on without a new handshake.

use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore as McpSessionStore, SessionStoreError,
};

use super::store::{SessionStore, Turn, Update};

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
        // restores a session its client ended.
        let key = format!("{KEY_PREFIX}{session_id}");
        self.blocking(move |store| {
            let version = store.version(&key)?.unwrap_or(0);
            store
                .save(&key, version, Update::Replace(""), Turn::Free)
                .map(drop)
        })
        .await
    }
}
