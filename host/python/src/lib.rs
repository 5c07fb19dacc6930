//! `filetools._native`: the Rust host as a Python extension module.
//!
//! The Python package (`filetools`, beside this crate) wraps these classes
//! in Python's idiom; what runs is the host of the `agent-filetools` crate
//! with its precompiled component, so the sandbox, the compare-and-replace
//! and the verified cache are those of every other host. A call releases
//! the GIL while it runs; a session takes one call at a time.

mod exit;
mod fs_errors;
mod fs_values;
mod precondition;
mod python_fs;
mod result;
mod session;
mod tools;

use pyo3::prelude::*;

pyo3::create_exception!(
    filetools,
    FiletoolsError,
    pyo3::exceptions::PyException,
    "The host could not do what the program asked: a root that cannot be opened, a bad config, a session whose memory a trap cost. Never raised for a model's bad arguments: those are answers."
);

/// The error a program gets for a host failure.
fn host_error(err: &anyhow::Error) -> PyErr {
    FiletoolsError::new_err(format!("{err:#}"))
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<tools::Tools>()?;
    module.add_class::<session::Session>()?;
    module.add_class::<result::ToolResult>()?;
    module.add_class::<result::TextBlock>()?;
    module.add_class::<result::ImageBlock>()?;
    module.add_class::<precondition::Precondition>()?;
    module.add("FiletoolsError", module.py().get_type::<FiletoolsError>())?;
    module.add_function(wrap_pyfunction!(exit::closing, module)?)?;
    Ok(())
}
