//! A file system written in Python, served to the guest as `host-fs`.
//!
//! The host calls the object's methods (see `filetools.fs.FileSystem`)
//! with the GIL taken for each; what they raise becomes the guest's file
//! error: `FileNotFoundError`, `PermissionError`, `IsADirectoryError` and
//! `NotADirectoryError` by type, `filetools.fs.FsError` subclasses by their
//! `code`, anything else an I/O error with the exception's text (a bug in
//! the file system is then an answer the model sees, not a crash).

use filetools_core::fs::{DirEntry, FileKind, FsError, HostFs, Metadata, Precondition as Core};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyNotADirectoryError, PyPermissionError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyTuple};

use crate::precondition::Precondition;

/// A Python object with the file system's methods.
#[derive(Debug)]
pub struct PythonFs {
    object: Py<PyAny>,
}

impl PythonFs {
    pub fn new(object: Py<PyAny>) -> Self {
        Self { object }
    }

    /// Calls `method` with `args`, then `convert` on what it gave, with the
    /// GIL held; an exception becomes a file error.
    fn call<T>(
        &self,
        method: &str,
        args: impl for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>>,
        convert: impl for<'py> FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
    ) -> Result<T, FsError> {
        Python::attach(|py| {
            let run = || {
                let args = args(py)?;
                let value = self.object.bind(py).call_method1(method, args)?;
                convert(&value)
            };
            run().map_err(|err| fs_error(py, &err, method))
        })
    }

    /// Whether the object has `method` (the journal's are optional).
    fn has(&self, method: &str) -> bool {
        Python::attach(|py| self.object.bind(py).hasattr(method).unwrap_or(false))
    }
}

/// The guest's file error for an exception a method raised.
fn fs_error(py: Python<'_>, err: &PyErr, method: &str) -> FsError {
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
            let kind = value
                .get_type()
                .name()
                .map_or_else(|_| "Exception".into(), |n| n.to_string());
            if text.is_empty() {
                FsError::Io(format!("{kind} in the file system's {method}"))
            } else {
                FsError::Io(format!("{kind} in the file system's {method}: {text}"))
            }
        }
    }
}

fn kind_of(name: &str) -> PyResult<FileKind> {
    Ok(match name {
        "file" => FileKind::File,
        "directory" => FileKind::Directory,
        "symlink" => FileKind::Symlink,
        "fifo" => FileKind::Fifo,
        "socket" => FileKind::Socket,
        "block-device" => FileKind::BlockDevice,
        "char-device" => FileKind::CharDevice,
        "other" => FileKind::Other,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown file kind {other:?}: use file, directory, symlink, fifo, socket, block-device, char-device or other"
            )));
        }
    })
}

/// An attribute of `value`, or `default` when it has none or it is `None`.
fn attr_or(value: &Bound<'_, PyAny>, name: &str, default: u64) -> PyResult<u64> {
    match value.getattr(name) {
        Ok(v) if !v.is_none() => v.extract(),
        _ => Ok(default),
    }
}

/// `Stat` (or any object with its attributes) as metadata.
fn metadata(value: &Bound<'_, PyAny>) -> PyResult<Metadata> {
    let kind = kind_of(&value.getattr("kind")?.extract::<String>()?)?;
    let size: u64 = value.getattr("size")?.extract()?;
    let mtime_ns: u64 = value.getattr("mtime_ns")?.extract()?;
    let readonly = match value.getattr("readonly") {
        Ok(v) if !v.is_none() => v.is_truthy()?,
        _ => false,
    };
    Ok(Metadata {
        kind,
        size,
        mtime_ns,
        readonly,
        created_ns: attr_or(value, "created_ns", mtime_ns)?,
        accessed_ns: attr_or(value, "accessed_ns", mtime_ns)?,
        mode: u32::try_from(attr_or(
            value,
            "mode",
            u64::from(Metadata::default_mode(kind, readonly)),
        )?)
        .map_err(|_| pyo3::exceptions::PyValueError::new_err("mode is not a permission mode"))?,
    })
}

/// Bytes from `bytes`, `bytearray` or anything `bytes()` takes.
fn bytes_of(value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(array) = value.cast::<PyByteArray>() {
        return Ok(array.to_vec());
    }
    let builtins = value.py().import("builtins")?;
    let bytes = builtins.getattr("bytes")?.call1((value,))?;
    Ok(bytes.cast_into::<PyBytes>()?.as_bytes().to_vec())
}

fn precondition(py: Python<'_>, precondition: &Core) -> PyResult<Py<Precondition>> {
    Py::new(
        py,
        Precondition {
            inner: precondition.clone(),
        },
    )
}

impl HostFs for PythonFs {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.call("stat", |py| (path,).into_pyobject(py), metadata)
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        let mut data = self.call("read", |py| (path, offset, len).into_pyobject(py), bytes_of)?;
        // A file system that gives more than asked is cut to the request.
        data.truncate(len as usize);
        Ok(data)
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.call(
            "list_dir",
            |py| (path,).into_pyobject(py),
            |value| {
                let mut entries = Vec::new();
                for entry in value.try_iter()? {
                    let entry = entry?;
                    entries.push(DirEntry {
                        name: entry.getattr("name")?.extract()?,
                        kind: kind_of(&entry.getattr("kind")?.extract::<String>()?)?,
                        size: attr_or(&entry, "size", 0)?,
                    });
                }
                entries.sort_by(|a, b| a.name.cmp(&b.name));
                Ok(entries)
            },
        )
    }

    fn write_file(&self, path: &str, data: &[u8], condition: &Core) -> Result<Metadata, FsError> {
        self.call(
            "write_file",
            |py| (path, PyBytes::new(py, data), precondition(py, condition)?).into_pyobject(py),
            metadata,
        )
    }

    fn remove_file(&self, path: &str, condition: &Core) -> Result<(), FsError> {
        self.call(
            "remove_file",
            |py| (path, precondition(py, condition)?).into_pyobject(py),
            |_| Ok(()),
        )
    }

    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        self.call("create_dir", |py| (path,).into_pyobject(py), |_| Ok(()))
    }

    fn rename(
        &self,
        source: &str,
        destination: &str,
        condition: &Core,
    ) -> Result<Metadata, FsError> {
        self.call(
            "rename",
            |py| (source, destination, precondition(py, condition)?).into_pyobject(py),
            metadata,
        )
    }

    fn begin_change(&self, record: &[u8]) -> Result<(), FsError> {
        if !self.has("begin_change") {
            return Ok(());
        }
        self.call(
            "begin_change",
            |py| (PyBytes::new(py, record),).into_pyobject(py),
            |_| Ok(()),
        )
    }

    fn end_change(&self) -> Result<(), FsError> {
        if !self.has("end_change") {
            return Ok(());
        }
        self.call("end_change", |py| Ok(PyTuple::empty(py)), |_| Ok(()))
    }

    fn claim_unfinished(&self) -> Result<Option<Vec<u8>>, FsError> {
        if !self.has("claim_unfinished") {
            return Ok(None);
        }
        self.call(
            "claim_unfinished",
            |py| Ok(PyTuple::empty(py)),
            |value| {
                if value.is_none() {
                    Ok(None)
                } else {
                    bytes_of(value).map(Some)
                }
            },
        )
    }
}
