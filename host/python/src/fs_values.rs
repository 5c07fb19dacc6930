//! Python values a file system's methods give, as the guest's types.

use filetools_core::{DirEntry, FileKind, Metadata};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};

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
            return Err(PyValueError::new_err(format!(
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
pub fn metadata(value: &Bound<'_, PyAny>) -> PyResult<Metadata> {
    let kind = kind_of(&value.getattr("kind")?.extract::<String>()?)?;
    let size: u64 = value.getattr("size")?.extract()?;
    let mtime_ns: u64 = value.getattr("mtime_ns")?.extract()?;
    let readonly = match value.getattr("readonly") {
        Ok(v) if !v.is_none() => v.is_truthy()?,
        _ => false,
    };
    let mode = attr_or(
        value,
        "mode",
        u64::from(Metadata::default_mode(kind, readonly)),
    )?;
    Ok(Metadata {
        kind,
        size,
        mtime_ns,
        readonly,
        created_ns: attr_or(value, "created_ns", mtime_ns)?,
        accessed_ns: attr_or(value, "accessed_ns", mtime_ns)?,
        mode: u32::try_from(mode)
            .map_err(|_| PyValueError::new_err("mode is not a permission mode"))?,
    })
}

/// A listing: `DirEntry`s (or objects with their attributes), sorted by
/// name; a name no entry can have, or one given twice, is refused.
pub fn entries(value: &Bound<'_, PyAny>) -> PyResult<Vec<DirEntry>> {
    let mut entries = Vec::new();
    for entry in value.try_iter()? {
        let entry = entry?;
        let name: String = entry.getattr("name")?.extract()?;
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
            return Err(PyValueError::new_err(format!(
                "the listing holds the name {name:?}, which no entry can have"
            )));
        }
        entries.push(DirEntry {
            name,
            kind: kind_of(&entry.getattr("kind")?.extract::<String>()?)?,
            size: attr_or(&entry, "size", 0)?,
            mtime_ns: attr_or(&entry, "mtime_ns", 0)?,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(pair) = entries.windows(2).find(|pair| pair[0].name == pair[1].name) {
        return Err(PyValueError::new_err(format!(
            "the listing holds {:?} twice",
            pair[0].name
        )));
    }
    Ok(entries)
}

/// Bytes from `bytes`, `bytearray` or `memoryview`; anything else is a
/// `TypeError`.
pub fn bytes_of(value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(array) = value.cast::<PyByteArray>() {
        return Ok(array.to_vec());
    }
    if value.cast::<PyMemoryView>().is_ok() {
        let bytes = value.call_method0("tobytes")?;
        return Ok(bytes.cast_into::<PyBytes>()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!(
        "expected bytes, bytearray or memoryview, not {}",
        value.get_type().name()?
    )))
}
