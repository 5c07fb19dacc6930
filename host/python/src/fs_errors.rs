//! What a Python file system's exception becomes: the guest's file error,
//! and for an interrupt (`KeyboardInterrupt`, `SystemExit`, any exception
//! that is not an `Exception`) also a pending error that the call raises
//! once it has returned.

use std::cell::RefCell;

use filetools_core::FsError;
use pyo3::exceptions::{
    PyException, PyFileNotFoundError, PyIsADirectoryError, PyNotADirectoryError, PyPermissionError,
};
use pyo3::prelude::*;

thread_local! {
    /// An interrupt a method raised during this thread's call.
    static INTERRUPT: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// Whether this thread's call was interrupted: its file operations then
/// fail without calling Python again.
pub fn interrupted() -> bool {
    INTERRUPT.with(|slot| slot.borrow().is_some())
}

/// Raises the interrupt a Python file system's method raised during the
/// call this thread just ran, if any.
pub fn raise_interrupt() -> PyResult<()> {
    match INTERRUPT.with(RefCell::take) {
        Some(err) => Err(err),
        None => Ok(()),
    }
}

/// The guest's file error for an exception `method` raised:
/// `FileNotFoundError`, `PermissionError`, `IsADirectoryError` and
/// `NotADirectoryError` by type, `filetools.fs.FsError` subclasses by their
/// `code`, anything else an I/O error with the exception's text (a bug in
/// the file system is then an answer the model sees, not a crash).
pub fn fs_error(py: Python<'_>, err: PyErr, method: &str) -> FsError {
    let kind = err
        .get_type(py)
        .name()
        .map_or_else(|_| "Exception".into(), |n| n.to_string());
    if !err.is_instance_of::<PyException>(py) {
        INTERRUPT.with(|slot| {
            slot.borrow_mut().get_or_insert(err);
        });
        return FsError::Io(format!("{kind} in the file system's {method}"));
    }
    if err.is_instance_of::<PyFileNotFoundError>(py) {
        return FsError::NotFound;
    }
    if err.is_instance_of::<PyPermissionError>(py) {
        return FsError::PermissionDenied;
    }
    if err.is_instance_of::<PyIsADirectoryError>(py) {
        return FsError::IsADirectory;
    }
    if err.is_instance_of::<PyNotADirectoryError>(py) {
        return FsError::NotADirectory;
    }
    let value = err.value(py);
    let code = value
        .getattr("code")
        .ok()
        .and_then(|c| c.extract::<String>().ok());
    match code.as_deref() {
        Some("not-found") => FsError::NotFound,
        Some("permission-denied") => FsError::PermissionDenied,
        Some("is-a-directory") => FsError::IsADirectory,
        Some("not-a-directory") => FsError::NotADirectory,
        Some("outside-sandbox") => FsError::OutsideSandbox,
        Some("read-only") => FsError::ReadOnly,
        Some("conflict") => FsError::Conflict,
        _ => {
            let text = value
                .str()
                .map_or_else(|_| "unprintable error".into(), |s| s.to_string());
            if text.is_empty() {
                FsError::Io(format!("{kind} in the file system's {method}"))
            } else {
                FsError::Io(format!("{kind} in the file system's {method}: {text}"))
            }
        }
    }
}
