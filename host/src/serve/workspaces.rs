//! The workspaces a server serves: one root, or each directory under one
//! directory, named by the client in the path (`/mcp/NAME`). A workspace's
//! tools are built at its first request and kept.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Result, bail};
use serde_json::{Value, json};

use crate::Tools;
use crate::mcp::Listing;
use crate::serve::lock;

/// The longest workspace name.
const MAX_NAME_BYTES: usize = 64;

/// Where the workspaces are.
#[derive(Debug, Clone)]
pub enum Roots {
    /// One workspace, served at `/mcp`.
    One(PathBuf),
    /// Each directory under this one is a workspace, at `/mcp/NAME`.
    Each(PathBuf),
}

/// Builds the tools over a workspace's root.
pub type MakeTools = Box<dyn Fn(&Path) -> Result<Tools> + Send + Sync>;

/// One workspace: its name (empty for the one root), tools and listing.
#[derive(Debug)]
pub struct Workspace {
    /// Its name (empty for the one root).
    pub name: String,
    /// Its tools.
    pub tools: Tools,
    /// Its tools' MCP definitions, with the `session` argument.
    pub listing: Listing,
}

/// Every workspace built so far.
pub(super) struct Workspaces {
    roots: Roots,
    make: MakeTools,
    read_only: bool,
    built: Mutex<HashMap<String, Arc<Workspace>>>,
    /// Held while one is built.
    building: Mutex<()>,
}

impl std::fmt::Debug for Workspaces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspaces")
            .field("roots", &self.roots)
            .finish_non_exhaustive()
    }
}

/// The `session` argument every tool takes when served over HTTP.
fn session_property() -> Value {
    json!({
        "type": "string",
        "description": "This conversation's session handle, from an earlier answer; leave it out to start a new session."
    })
}

impl Workspaces {
    pub fn new(roots: Roots, make: MakeTools, read_only: bool) -> Self {
        Self {
            roots,
            make,
            read_only,
            built: Mutex::new(HashMap::new()),
            building: Mutex::new(()),
        }
    }

    /// Whether the client names the workspace in the path.
    pub fn named(&self) -> bool {
        matches!(self.roots, Roots::Each(_))
    }

    /// Any workspace built so far.
    fn any_built(&self) -> Option<Arc<Workspace>> {
        lock(&self.built).values().next().cloned()
    }

    /// The workspace `name` names when it was built already.
    pub fn built(&self, name: &str) -> Option<Arc<Workspace>> {
        lock(&self.built).get(name).cloned()
    }

    /// The workspace `name` names (`""` for the one root), built when
    /// first asked for; `None` when there is no such workspace. Blocks
    /// while the tools are built.
    pub fn get(&self, name: &str) -> Result<Option<Arc<Workspace>>> {
        let root = match &self.roots {
            Roots::One(root) if name.is_empty() => root.clone(),
            Roots::Each(dir) if valid_name(name) => {
                let root = dir.join(name);
                if !root.is_dir() {
                    return Ok(None);
                }
                root
            }
            _ => return Ok(None),
        };
        // Builds take turns, outside the map's lock: a request for a
        // workspace built already never waits for one.
        let _building = lock(&self.building);
        if let Some(workspace) = self.built(name) {
            return Ok(Some(workspace));
        }
        // The first workspace builds the tools; the others share its
        // engine, compiled component and listing.
        let first = self.any_built();
        let workspace = Arc::new(if let Some(first) = first {
            Workspace {
                name: name.to_owned(),
                tools: first.tools.with_root(&root)?,
                listing: first.listing.clone(),
            }
        } else {
            let tools = (self.make)(&root)?;
            let mut session = tools.session()?;
            let mut listing = Listing::new(&mut session, self.read_only)?;
            for tool in &mut listing.tools {
                let schema = Arc::make_mut(&mut tool.input_schema);
                let Some(Value::Object(properties)) = schema.get_mut("properties") else {
                    bail!("the {} tool's schema has no properties", tool.name);
                };
                properties.insert("session".to_owned(), session_property());
            }
            Workspace {
                name: name.to_owned(),
                tools,
                listing,
            }
        });
        lock(&self.built).insert(name.to_owned(), Arc::clone(&workspace));
        Ok(Some(workspace))
    }
}

/// A workspace name: letters, digits, `.`, `_`, `-`, not starting with a
/// dot, at most [`MAX_NAME_BYTES`].
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_BYTES
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}
