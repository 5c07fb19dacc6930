//! What a change requires of the file it replaces, handed to a Python file
//! system's `write_file`, `remove_file` and `rename`.

use filetools_core::{FsError, Precondition as Core};
use pyo3::prelude::*;

/// What the current file must be for a change to go ahead: `kind` is
/// `"any"`, `"absent"` or `"matches"` (then `size`, and `sha256` when it
/// decides, else `mtime_ns`). A file system checks it with `holds` in the
/// same step as the change and raises `Conflict` when it does not hold.
#[pyclass(module = "filetools._native", frozen)]
#[derive(Debug)]
pub struct Precondition {
    pub(crate) inner: Core,
}

#[pymethods]
impl Precondition {
    /// `"any"`, `"absent"` or `"matches"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner {
            Core::Any => "any",
            Core::Absent => "absent",
            Core::Matches(_) => "matches",
        }
    }

    /// The size the file must have (`"matches"` only).
    #[getter]
    fn size(&self) -> Option<u64> {
        match &self.inner {
            Core::Matches(stamp) => Some(stamp.size),
            _ => None,
        }
    }

    /// The modification time the file must have, when no `sha256` decides.
    #[getter]
    fn mtime_ns(&self) -> Option<u64> {
        match &self.inner {
            Core::Matches(stamp) => Some(stamp.mtime_ns),
            _ => None,
        }
    }

    /// The content's lower-case hex SHA-256, when it decides.
    #[getter]
    fn sha256(&self) -> Option<&str> {
        match &self.inner {
            Core::Matches(stamp) => stamp.sha256.as_deref(),
            _ => None,
        }
    }

    /// The content's lower-case hex XXH3-128 (32 digits), when known: `holds`
    /// checks it instead of `sha256`, for a tenth of the work.
    #[getter]
    fn xxh3(&self) -> Option<&str> {
        match &self.inner {
            Core::Matches(stamp) => stamp.xxh3.as_deref(),
            _ => None,
        }
    }

    /// Whether it holds for the current file: `size` and `mtime_ns` are
    /// the file's, `size=None` when there is none; `content` is its bytes
    /// (or a function giving them), read only when a hash decides.
    #[pyo3(signature = (size, mtime_ns=0, content=None))]
    fn holds(
        &self,
        size: Option<u64>,
        mtime_ns: u64,
        content: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let mut failure = None;
        let current = size.map(|size| (size, mtime_ns));
        let verdict = self.inner.holds(current, |kind| {
            let Some(content) = content else {
                return Err(FsError::Io(
                    "the content is needed to check its hash".into(),
                ));
            };
            let bytes = if content.is_callable() {
                content.call0()
            } else {
                Ok(content.clone())
            };
            match bytes.and_then(|b| crate::fs_values::bytes_of(&b)) {
                Ok(bytes) => Ok(kind.of(&bytes)),
                Err(err) => {
                    failure = Some(err);
                    Err(FsError::Io(String::new()))
                }
            }
        });
        match (verdict, failure) {
            (_, Some(err)) => Err(err),
            (Ok(holds), None) => Ok(holds),
            (Err(err), None) => Err(pyo3::exceptions::PyValueError::new_err(err.to_string())),
        }
    }

    fn __repr__(&self) -> String {
        match &self.inner {
            Core::Any => "Precondition(any)".into(),
            Core::Absent => "Precondition(absent)".into(),
            Core::Matches(stamp) => match &stamp.sha256 {
                Some(sha256) => {
                    format!("Precondition(matches size={} sha256={sha256})", stamp.size)
                }
                None => format!(
                    "Precondition(matches size={} mtime_ns={})",
                    stamp.size, stamp.mtime_ns
                ),
            },
        }
    }
}
