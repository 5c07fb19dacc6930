//! A new file costs the same in a directory of any size: creating one asks
//! the host the same questions in a directory of 50 entries as in one of
//! 50,000, and lists no directory, through every tool that creates.

use std::cell::Cell;

use serde_json::json;

use crate::fs::host::{DirEntry, FsError, HostFs, Metadata, Precondition};
use crate::fs::memory::MemFs;
use crate::tools::session::Session;

/// Entries in the large directory.
const LARGE: usize = 50_000;
/// Entries in the small one.
const SMALL: usize = 50;
/// Files each tool creates in each directory.
const CREATED: usize = 10;

/// A `MemFs` that counts the host calls made of it and the entries its
/// listings gave.
#[derive(Default)]
struct Counting {
    fs: MemFs,
    calls: Cell<usize>,
    listed: Cell<usize>,
}

impl Counting {
    fn called(&self) {
        self.calls.set(self.calls.get() + 1);
    }

    fn listing(&self, listed: Result<Vec<DirEntry>, FsError>) -> Result<Vec<DirEntry>, FsError> {
        self.called();
        if let Ok(entries) = &listed {
            self.listed.set(self.listed.get() + entries.len());
        }
        listed
    }
}

impl HostFs for Counting {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.called();
        self.fs.stat(path)
    }
    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.called();
        self.fs.read(path, offset, len)
    }
    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.listing(self.fs.list_dir(path))
    }
    fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        self.listing(self.fs.list_names(path))
    }
    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.called();
        self.fs.write_file(path, data, precondition)
    }
    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        self.called();
        self.fs.remove_file(path, precondition)
    }
    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        self.called();
        self.fs.create_dir(path)
    }
    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        self.called();
        self.fs.rename(source, destination, precondition)
    }
}

/// A tool call that creates the file (or directory) at a path.
type Create = dyn Fn(&mut Session<Counting>, &str);

/// What creating `CREATED` files in `dir` with `create` cost: host calls
/// and entries listed, per file.
fn cost_per_file(session: &mut Session<Counting>, dir: &str, create: &Create) -> (usize, usize) {
    let (calls, listed) = (session.fs().calls.get(), session.fs().listed.get());
    for n in 0..CREATED {
        create(session, &format!("{dir}/new-{n}.txt"));
    }
    (
        (session.fs().calls.get() - calls) / CREATED,
        (session.fs().listed.get() - listed) / CREATED,
    )
}

#[test]
fn a_new_file_asks_the_same_of_the_host_in_a_directory_of_any_size() {
    let fs = Counting::default();
    for n in 0..LARGE {
        fs.fs.add_file(&format!("large/f{n:05}.txt"), b"x\n");
    }
    for n in 0..SMALL {
        fs.fs.add_file(&format!("small/f{n:05}.txt"), b"x\n");
    }
    let config = r#"{"tools": ["filetools", "apply-patch", "mcp-filesystem"]}"#;
    let mut session = Session::open(config, fs).unwrap();
    let tools: [(&str, &Create); 3] = [
        ("write", &|s, path| {
            let result = s.call(
                "write",
                &json!({"file_path": path, "content": "new\n"}).to_string(),
            );
            assert!(!result.is_error, "{}", result.text());
        }),
        ("apply_patch", &|s, path| {
            let patch = format!("*** Begin Patch\n*** Add File: {path}\n+new\n*** End Patch\n");
            let result = s.call("apply_patch", &json!({"input": patch}).to_string());
            assert!(!result.is_error, "{}", result.text());
        }),
        ("create_directory", &|s, path| {
            let result = s.call("create_directory", &json!({"path": path}).to_string());
            assert!(!result.is_error, "{}", result.text());
        }),
    ];
    for (tool, create) in tools {
        // The first creation in each directory is not counted: a first
        // change may sweep or set up what later ones reuse.
        create(&mut session, &format!("small/first-{tool}.txt"));
        create(&mut session, &format!("large/first-{tool}.txt"));
        let small = cost_per_file(&mut session, &format!("small/{tool}"), create);
        let large = cost_per_file(&mut session, &format!("large/{tool}"), create);
        assert_eq!(small, large, "{tool}: (calls, entries listed) per file");
        assert_eq!(large.1, 0, "{tool} listed a directory to create a file");
    }
}
