//! A file system written in Python, served to the guest as `host-fs`.
//!
//! The host calls the object's methods (see `filetools.fs.FileSystem`)
//! with the GIL taken for each; what they give is checked
//! ([`crate::fs_values`]) and what they raise becomes a file error
//! ([`crate::fs_errors`]).

use filetools_core::{DirEntry, FsError, HostFs, Metadata, Precondition as Core};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::exit::unless_closing;
use crate::fs_errors::{fs_error, interrupted};
use crate::fs_values::{bytes_of, entries, metadata};
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
    /// GIL held; an exception becomes a file error. Nothing is called once
    /// the call was interrupted or the interpreter is exiting.
    fn call<T>(
        &self,
        method: &str,
        args: impl for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>>,
        convert: impl for<'py> FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
    ) -> Result<T, FsError> {
        if interrupted() {
            return Err(FsError::Io("the call was interrupted".into()));
        }
        unless_closing(
            || Err(FsError::Io("the Python interpreter is exiting".into())),
            || {
                Python::attach(|py| {
                    let run = || {
                        let args = args(py)?;
                        let value = self.object.bind(py).call_method1(method, args)?;
                        convert(&value)
                    };
                    run().map_err(|err| fs_error(py, err, method))
                })
            },
        )
    }

    /// [`PythonFs::call`] of a change: when the method returned something
    /// that is not a `Stat`, the change may still be made, so the answer
    /// is the metadata of `path` now.
    fn change(
        &self,
        method: &str,
        args: impl for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>>,
        path: &str,
    ) -> Result<Metadata, FsError> {
        match self.call(method, args, |value| Ok(metadata(value).ok()))? {
            Some(done) => Ok(done),
            None => self.stat(path),
        }
    }
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
        self.call("list_dir", |py| (path,).into_pyobject(py), entries)
    }

    fn write_file(&self, path: &str, data: &[u8], condition: &Core) -> Result<Metadata, FsError> {
        self.change(
            "write_file",
            |py| (path, PyBytes::new(py, data), precondition(py, condition)?).into_pyobject(py),
            path,
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
        self.change(
            "rename",
            |py| (source, destination, precondition(py, condition)?).into_pyobject(py),
            destination,
        )
    }
}
