//! `Session`: one conversation's memory; one call at a time, GIL released.

use std::sync::Mutex;

use pyo3::prelude::*;

use crate::host_error;
use crate::result::ToolResult;

/// One conversation's session. Calls from several threads take turns.
#[pyclass(module = "filetools._native", frozen)]
#[derive(Debug)]
pub struct Session {
    inner: Mutex<filetools::Session>,
}

impl Session {
    pub fn new(session: filetools::Session) -> Self {
        Self {
            inner: Mutex::new(session),
        }
    }

    /// Runs `work` on the session with the GIL released, after the calls
    /// before it. A panic in an earlier call leaves the session as the host
    /// left it, which is consistent: the lock's poison is cleared.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut filetools::Session) -> T + Send,
    ) -> T {
        py.detach(|| {
            let mut session = self
                .inner
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            work(&mut session)
        })
    }
}

#[pymethods]
impl Session {
    /// Runs `tool` with the model's arguments as JSON text. A model's bad
    /// arguments are an answer (`is_error`), never an exception.
    fn call(&self, py: Python<'_>, tool: &str, arguments: &str) -> ToolResult {
        ToolResult::new(self.with(py, |s| s.call(tool, arguments)))
    }

    /// The session's memory as versioned JSON text.
    fn save(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, filetools::Session::save)
            .map_err(|e| host_error(&e))
    }

    /// Replaces the session's memory with one `save` gave.
    fn restore(&self, py: Python<'_>, state: &str) -> PyResult<()> {
        self.with(py, |s| s.restore(state))
            .map_err(|e| host_error(&e))
    }

    /// Says the model's earlier outputs left its context.
    fn forget_outputs(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, filetools::Session::forget_outputs)
            .map_err(|e| host_error(&e))
    }

    /// Bytes the session's guest memory has grown by since it opened.
    #[getter]
    fn memory_bytes(&self, py: Python<'_>) -> usize {
        self.with(py, |s| s.memory_bytes())
    }
}
