//! [`Session`]: one agent conversation's tools over one file system. Raw
//! model calls enter through [`Session::call`], typed ones through the tool
//! methods; both give the same result.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("a.txt", b"hi\n");
//! let mut session = Session::open("{}", fs).unwrap();
//! let result = session.call("read", r#"{"file_path": "a.txt"}"#);
//! assert_eq!(result.text(), "1\thi\n[lines 1-1 of 1; end of file]");
//! ```

use crate::args::ReadArgs;
use crate::config::Config;
use crate::error::ToolError;
use crate::fs::HostFs;
use crate::read;
use crate::result::ToolResult;

/// State that spans the calls of one conversation.
#[derive(Debug)]
pub struct Session<F> {
    config: Config,
    fs: F,
}

impl<F: HostFs> Session<F> {
    /// A session with `config` over `fs`.
    pub fn new(config: Config, fs: F) -> Self {
        Self { config, fs }
    }

    /// A session from a JSON config object (`{}` for the defaults).
    pub fn open(config_json: &str, fs: F) -> Result<Self, String> {
        Ok(Self::new(Config::from_json(config_json)?, fs))
    }

    /// The session's config.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The file system the session works on.
    pub fn fs(&self) -> &F {
        &self.fs
    }

    /// Runs `tool` with the model's raw JSON arguments.
    pub fn call(&mut self, tool: &str, arguments: &str) -> ToolResult {
        match tool {
            "read" => match ReadArgs::from_json(arguments) {
                Ok(args) => read::read(&self.config, &self.fs, &args),
                Err(err) => ToolResult::error(&err, None),
            },
            other => ToolResult::error(
                &ToolError::UnknownTool {
                    name: other.to_owned(),
                },
                None,
            ),
        }
    }

    /// `read` with typed arguments.
    pub fn read(&mut self, args: &ReadArgs) -> ToolResult {
        match args.clone().checked() {
            Ok(args) => read::read(&self.config, &self.fs, &args),
            Err(err) => ToolResult::error(&err, None),
        }
    }
}
