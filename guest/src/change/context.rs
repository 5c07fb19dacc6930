//! [`Ctx`]: what a change works with during one call — the session's
//! config, its file system and memory, and the encoding the call named.

use crate::config::Config;
use crate::memory::state::State;
use crate::text::encoding::Encoding;

/// What a tool that changes files works with.
pub(crate) struct Ctx<'a, F: ?Sized> {
    /// The session's config.
    pub config: &'a Config,
    /// The file system.
    pub fs: &'a F,
    /// The session's memory.
    pub state: &'a mut State,
    /// The encoding the call named for the file it changes, checked.
    pub encoding: Option<Encoding>,
}
