//! [`Recording`]: a [`HostFs`] over another that notes every file a change
//! writes, and — for a dry run — makes none of them: reads see the real
//! files, writes are kept in memory. A dry run of a tool is thus the tool
//! itself, rules and all, minus the disk.

use std::cell::RefCell;

use crate::fs::host::{DirEntry, FileKind, FsError, HostFs, Metadata, Precondition};

/// Another file system, with its writes noted (and, when dry, held back).
#[derive(Debug)]
pub struct Recording<F> {
    inner: F,
    dry: bool,
    written: RefCell<Vec<(String, Vec<u8>)>>,
}

impl<F: HostFs> Recording<F> {
    /// `inner` with its writes noted; `dry` keeps them from reaching it.
    pub fn new(inner: F, dry: bool) -> Self {
        Self {
            inner,
            dry,
            written: RefCell::new(Vec::new()),
        }
    }

    /// Every file written, with its new content, in order.
    pub fn written(self) -> Vec<(String, Vec<u8>)> {
        self.written.into_inner()
    }

    /// Refuses a change a dry run cannot show.
    fn dry_refusal(&self) -> Result<(), FsError> {
        if self.dry {
            Err(FsError::Io(
                "a dry run changes only file content".to_owned(),
            ))
        } else {
            Ok(())
        }
    }
}

impl<F: HostFs> HostFs for Recording<F> {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.inner.stat(path)
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.inner.read(path, offset, len)
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.inner.list_dir(path)
    }

    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        let meta = if self.dry {
            Metadata {
                kind: FileKind::File,
                size: data.len() as u64,
                mtime_ns: 0,
                readonly: false,
                created_ns: 0,
                accessed_ns: 0,
                mode: Metadata::default_mode(FileKind::File, false),
            }
        } else {
            self.inner.write_file(path, data, precondition)?
        };
        self.written
            .borrow_mut()
            .push((path.to_owned(), data.to_vec()));
        Ok(meta)
    }

    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        self.dry_refusal()?;
        self.inner.remove_file(path, precondition)
    }

    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        self.dry_refusal()?;
        self.inner.create_dir(path)
    }

    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.dry_refusal()?;
        self.inner.rename(source, destination, precondition)
    }

    fn begin_change(&self, record: &[u8]) -> Result<(), FsError> {
        if self.dry {
            return Ok(());
        }
        self.inner.begin_change(record)
    }

    fn end_change(&self) -> Result<(), FsError> {
        if self.dry {
            return Ok(());
        }
        self.inner.end_change()
    }

    fn claim_unfinished(&self) -> Result<Option<Vec<u8>>, FsError> {
        if self.dry {
            return Ok(None);
        }
        self.inner.claim_unfinished()
    }
}
