//! `Session`: one conversation's memory; one call at a time, GIL released.

use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::fs_errors;
use crate::host_error;
use crate::result::ToolResult;

/// Numbers the threads that run calls, so a session knows whether the
/// thread asking is the one already inside it.
static NEXT_THREAD: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static THREAD: Cell<u64> = const { Cell::new(0) };
}

fn this_thread() -> u64 {
    THREAD.with(|id| {
        if id.get() == 0 {
            id.set(NEXT_THREAD.fetch_add(1, Ordering::Relaxed));
        }
        id.get()
    })
}

/// One conversation's session. Calls from several threads take turns.
#[pyclass(module = "filetools._native", frozen)]
#[derive(Debug)]
pub struct Session {
    inner: Mutex<filetools::Session>,
    /// The thread running a call now (0: none).
    running: AtomicU64,
}

impl Session {
    pub fn new(session: filetools::Session) -> Self {
        Self {
            inner: Mutex::new(session),
            running: AtomicU64::new(0),
        }
    }

    /// Runs `work` on the session with the GIL released, after the calls
    /// before it. A call from inside a call of this session (a file
    /// system's method calling its own session) is refused: it would wait
    /// for itself. A panic in an earlier call leaves the session as the
    /// host left it, which is consistent: the lock's poison is cleared. An
    /// interrupt raised in a Python file system's method during the call
    /// is raised here, after the call.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut filetools::Session) -> T + Send,
    ) -> PyResult<T> {
        let me = this_thread();
        if self.running.load(Ordering::Acquire) == me {
            return Err(PyRuntimeError::new_err(
                "this session is already running a call on this thread: a file system's method may not call the session it serves; use another session",
            ));
        }
        let done = py.detach(|| {
            let mut session = self
                .inner
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            self.running.store(me, Ordering::Release);
            let done = work(&mut session);
            self.running.store(0, Ordering::Release);
            done
        });
        fs_errors::raise_interrupt()?;
        Ok(done)
    }
}

#[pymethods]
impl Session {
    /// Runs `tool` with the model's arguments as JSON text. A model's bad
    /// arguments are an answer (`is_error`), never an exception.
    fn call(&self, py: Python<'_>, tool: &str, arguments: &str) -> PyResult<ToolResult> {
        self.with(py, |s| s.call(tool, arguments))
            .map(ToolResult::new)
    }

    /// The session's memory as versioned JSON text.
    fn save(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, filetools::Session::save)?
            .map_err(|e| host_error(&e))
    }

    /// Replaces the session's memory with one `save` gave.
    fn restore(&self, py: Python<'_>, state: &str) -> PyResult<()> {
        self.with(py, |s| s.restore(state))?
            .map_err(|e| host_error(&e))
    }

    /// Says the model's earlier outputs left its context.
    fn forget_outputs(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, filetools::Session::forget_outputs)?
            .map_err(|e| host_error(&e))
    }

    /// Bytes the session's guest memory has grown by since it opened.
    #[getter]
    fn memory_bytes(&self, py: Python<'_>) -> PyResult<usize> {
        self.with(py, |s| s.memory_bytes())
    }
}
