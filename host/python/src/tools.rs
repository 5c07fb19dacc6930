//! `Tools`: the compiled component over one root or one Python file system.

use std::path::PathBuf;
use std::time::Duration;

use filetools::Format;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::python_fs::PythonFs;
use crate::session::Session;
use crate::{FiletoolsError, host_error};

/// The tools over one root directory (or a file system object): compiled
/// once, they hand out sessions.
#[pyclass(module = "filetools._native", frozen)]
#[derive(Debug)]
pub struct Tools {
    tools: filetools::Tools,
}

#[pymethods]
impl Tools {
    #[new]
    #[pyo3(signature = (root=None, *, fs=None, read_only=false, config_json=None, memory_limit=None, call_timeout=None, cache_dir=None, state_dir=None))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn new(
        py: Python<'_>,
        root: Option<PathBuf>,
        fs: Option<Py<PyAny>>,
        read_only: bool,
        config_json: Option<&str>,
        memory_limit: Option<usize>,
        call_timeout: Option<f64>,
        cache_dir: Option<PathBuf>,
        state_dir: Option<PathBuf>,
    ) -> PyResult<Self> {
        let mut builder = filetools::Tools::builder().read_only(read_only);
        builder = match (root, fs) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err("give either root or fs, not both"));
            }
            (Some(root), None) => builder.root(root),
            (None, Some(fs)) => builder.fs(PythonFs::new(fs)),
            (None, None) => {
                return Err(PyValueError::new_err(
                    "filetools needs a root directory (root=...) or a file system (fs=...)",
                ));
            }
        };
        if let Some(json) = config_json {
            builder = builder.config_json(json).map_err(|e| host_error(&e))?;
        }
        if let Some(bytes) = memory_limit {
            builder = builder.memory_limit(bytes);
        }
        if let Some(seconds) = call_timeout {
            let timeout = Duration::try_from_secs_f64(seconds).map_err(|_| {
                PyValueError::new_err(format!(
                    "call_timeout must be a positive number of seconds, not {seconds}"
                ))
            })?;
            builder = builder.call_timeout(timeout);
        }
        if let Some(dir) = cache_dir {
            builder = builder.cache_dir(dir);
        }
        if let Some(dir) = state_dir {
            builder = builder.state_dir(dir);
        }
        // Building loads the component and opens a first session: no
        // Python runs meanwhile but a file system's own methods.
        let tools = py.detach(|| builder.build()).map_err(|e| host_error(&e))?;
        Ok(Self { tools })
    }

    /// A new session: its own memory (ledger, history) over the same files.
    fn session(&self, py: Python<'_>) -> PyResult<Session> {
        let session = py
            .detach(|| self.tools.session())
            .map_err(|e| host_error(&e))?;
        Ok(Session::new(session))
    }

    /// The definitions for the model as JSON text: `format` is one of the
    /// schema formats, or `None` for name, description and input schema.
    #[pyo3(signature = (format=None))]
    fn definitions_json(&self, py: Python<'_>, format: Option<&str>) -> PyResult<String> {
        let values = match format {
            Some(name) => {
                let format = Format::parse(name).map_err(PyValueError::new_err)?;
                py.detach(|| self.tools.schema(format))
                    .map_err(|e| host_error(&e))?
            }
            None => py
                .detach(|| self.tools.definitions())
                .map_err(|e| host_error(&e))?
                .into_iter()
                .map(|d| {
                    let schema = serde_json::from_str(&d.input_schema)
                        .unwrap_or(serde_json::Value::String(d.input_schema));
                    serde_json::json!({
                        "name": d.name,
                        "description": d.description,
                        "input_schema": schema,
                    })
                })
                .collect(),
        };
        serde_json::to_string(&values).map_err(|e| FiletoolsError::new_err(e.to_string()))
    }

    /// The schema formats `definitions_json` takes.
    #[staticmethod]
    fn formats() -> Vec<&'static str> {
        Format::ALL.iter().map(|f| f.name()).collect()
    }

    /// How the component's machine code was had: `compiled`, `cached` or
    /// `precompiled`.
    #[getter]
    fn load_source(&self) -> &'static str {
        match self.tools.load_source() {
            filetools::LoadSource::Compiled => "compiled",
            filetools::LoadSource::Cached => "cached",
            filetools::LoadSource::Precompiled => "precompiled",
        }
    }

    /// The canonical root directory, or `None` over a file system object.
    #[getter]
    fn root(&self) -> Option<PathBuf> {
        self.tools.root().map(std::path::Path::to_path_buf)
    }

    /// Why no cache of machine code is used, when one was wanted.
    #[getter]
    fn cache_refusal(&self) -> Option<&str> {
        self.tools.cache_refusal()
    }

    /// Why the records of changes under way are kept in memory.
    #[getter]
    fn state_refusal(&self) -> Option<&str> {
        self.tools.state_refusal()
    }
}
